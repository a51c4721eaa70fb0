import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { Role } from '../../contract/common.ts';
import { memberships } from '../db/schema/memberships.ts';
import { EXPORT_CHUNK, exportLimits } from '../services/events/export.ts';
import { BASE, createTestApi, ORIGIN, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

let t: TestApi;
const as = {} as Record<Role | 'stranger', string>;
let spaceId: string;

// More events than two chunks, many sharing a second, so ties straddle the chunk boundaries.
const N = EXPORT_CHUNK * 2 + 345;
const start = Date.parse('2026-11-20T12:00:00.000Z');
const timeOf = (i: number) => new Date(start - Math.floor(i / 7) * 1000).toISOString();
const SPECIAL = [
  { message: '=HYPERLINK("http://evil.example","click")', userAgent: '@SUM(1+1)', path: '+cmd|calc' },
  { message: 'line one\r\nline "two", with comma', userAgent: '-2+3', path: '/plain' },
];

beforeAll(async () => {
  t = await createTestApi();
  as.owner = (await t.signUp('owner@example.com')).cookie;
  spaceId = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Shop & Co. Edge' } }))).json.id;
  for (const role of ['admin', 'analyst', 'viewer'] as const) {
    const { cookie, user } = await t.signUp(`${role}@example.com`);
    await t.db.insert(memberships).values({ spaceId, userId: user.id, role, createdAt: t.deps.now() });
    as[role] = cookie;
  }
  as.stranger = (await t.signUp('stranger@example.com')).cookie;
  const source = await t.read(
    t
      .api(as.owner)
      .spaces[':spaceId'].sources.$post({ param: { spaceId }, json: { name: 'edge nginx', kind: 'json' } }),
  );
  const lines = Array.from({ length: N }, (_, i) => {
    const special = SPECIAL[i] ?? {};
    return JSON.stringify({
      time: timeOf(i),
      ip: `198.51.100.${i % 250}`,
      method: 'GET',
      host: 'shop.example.com',
      path: `/item/${i}`,
      status: i % 3 === 0 ? 403 : 200,
      action: i % 3 === 0 ? 'blocked' : 'allowed',
      severity: i % 3 === 0 ? 'critical' : 'info',
      ruleIds: i % 3 === 0 ? [942100, 949110] : [],
      tags: i % 3 === 0 ? ['attack-sqli', 'paranoia-level/1'] : [],
      message: `event ${i}`,
      userAgent: 'curl/8.5.0',
      extra: { n: i },
      ...special,
    });
  });
  const res = await t.app.request(`${BASE}/api/ingest/${source.json.token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: lines.join('\n'),
  });
  expect(res.status).toBe(200);
  expect((await res.json()).accepted).toBe(N);
});
afterAll(async () => {
  await t.close();
});

const exportOf = (query: Record<string, string>, cookie: string | null = as.viewer) =>
  t.raw('GET', `/api/spaces/${spaceId}/events/export?${new URLSearchParams(query)}`, cookie ? { cookie } : {});

/** RFC 4180 records: quoted cells may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell || record.length) records.push([...record, cell]);
  return records;
}

test('NDJSON streams every matching event, newest first, across chunk boundaries, with the count up front', async () => {
  const res = await exportOf({});
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/application\/x-ndjson/);
  expect(res.headers.get('x-total-count')).toBe(String(N));
  expect(res.headers.get('content-disposition')).toMatch(
    /^attachment; filename="spaceguard-events-shop-co-edge-start-\d{8}T\d{6}Z\.ndjson"$/,
  );
  const lines = res.text.trimEnd().split('\n');
  expect(lines).toHaveLength(N);
  const rows = lines.map((line) => JSON.parse(line));
  expect(new Set(rows.map((row) => row.id)).size).toBe(N);
  // Newest first; ties on time broken by id, descending, as the list pages them.
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1], rows[i]];
    expect(a.time > b.time || (a.time === b.time && a.id > b.id), `row ${i}`).toBe(true);
  }
  // Each line is the event as the event API answers it, raw record included.
  const one = await t.read(
    t.api(as.viewer).spaces[':spaceId'].events[':eventId'].$get({ param: { spaceId, eventId: rows[17].id } }),
  );
  expect(rows[17]).toEqual(one.json);
  expect(rows.find((row) => row.path === '/item/1234')?.raw).toMatchObject({ extra: { n: 1234 } });
});

test('the query and the time range filter the export and name the file', async () => {
  const from = '2026-11-20T11:00:00.000Z';
  const to = '2026-11-20T11:55:00.000Z';
  const all = await exportOf({ q: 'action:blocked', from, to });
  const rows = all.text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  const expected = Array.from({ length: N }, (_, i) => i).filter(
    (i) => i % 3 === 0 && timeOf(i) >= from && timeOf(i) <= to,
  );
  expect(expected.length).toBeGreaterThan(100);
  expect(rows).toHaveLength(expected.length);
  expect(all.headers.get('x-total-count')).toBe(String(expected.length));
  expect(rows.every((row) => row.action === 'blocked' && row.time >= from && row.time <= to)).toBe(true);
  expect(all.headers.get('content-disposition')).toBe(
    'attachment; filename="spaceguard-events-shop-co-edge-20261120T110000Z-20261120T115500Z.ndjson"',
  );
  const none = await exportOf({ q: 'ip:192.0.2.1' });
  expect(none.status).toBe(200);
  expect(none.headers.get('x-total-count')).toBe('0');
  expect(none.text).toBe('');
});

test('CSV has the documented columns, RFC 4180 quoting and neutralised formulas', async () => {
  const res = await exportOf({ format: 'csv' });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/text\/csv/);
  expect(res.headers.get('content-disposition')).toMatch(/\.csv"$/);
  expect(res.headers.get('x-total-count')).toBe(String(N));
  const records = parseCsv(res.text);
  expect(records[0]).toEqual([
    'time',
    'id',
    'source',
    'ip',
    'country',
    'method',
    'host',
    'path',
    'status',
    'action',
    'severity',
    'ruleIds',
    'tags',
    'message',
    'userAgent',
  ]);
  expect(records).toHaveLength(N + 1);
  const byPath = new Map(
    records.slice(1).map((r) => [r[7], Object.fromEntries(r.map((v, i) => [records[0]?.[i], v]))]),
  );
  const blocked = byPath.get('/item/3');
  expect(blocked).toMatchObject({
    source: 'edge nginx',
    ip: '198.51.100.3',
    method: 'GET',
    status: '403',
    action: 'blocked',
    severity: 'critical',
    ruleIds: '942100 949110',
    tags: 'attack-sqli paranoia-level/1',
    message: 'event 3',
    userAgent: 'curl/8.5.0',
    time: timeOf(3),
  });
  // Formulas get a leading apostrophe; quotes, commas and line breaks stay inside their cell.
  const formula = byPath.get("'+cmd|calc");
  expect(formula?.message).toBe('\'=HYPERLINK("http://evil.example","click")');
  expect(formula?.userAgent).toBe("'@SUM(1+1)");
  const multiline = byPath.get('/plain');
  expect(multiline?.message).toBe('line one\r\nline "two", with comma');
  expect(multiline?.userAgent).toBe("'-2+3");
  expect(res.text).toContain('"line one\r\nline ""two"", with comma"');
});

test('viewers and up export; strangers get 404 and anonymous callers 401', async () => {
  for (const role of ['viewer', 'analyst', 'admin', 'owner'] as const) {
    const res = await exportOf({ q: 'path:/item/5' }, as[role]);
    expect(res.status, role).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('1');
  }
  const stranger = await exportOf({}, as.stranger);
  expect(stranger.status).toBe(404);
  expect(stranger.text).not.toContain('Shop');
  expect((await exportOf({}, null)).status).toBe(401);
});

test('bad input is a 400 naming the field: the query with its position, the format, the range', async () => {
  const q = await exportOf({ q: 'status:>=abc' });
  expect(q.status).toBe(400);
  expect(q.json.error.code).toBe('query_invalid');
  expect(q.json.error.fields.q).toMatch(/at character \d+/);
  const format = await exportOf({ format: 'xlsx' });
  expect(format.status).toBe(400);
  expect(format.json.error.fields.format).toBe('Choose ndjson or csv.');
  const from = await exportOf({ from: 'yesterday' });
  expect(from.status).toBe(400);
  expect(from.json.error.fields.from).toBeTruthy();
});

test('through a real node HTTP server the export arrives as a chunked stream', async () => {
  const server = createServer(getRequestListener(t.app.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/api/spaces/${spaceId}/events/export?format=csv`, {
      headers: { cookie: as.viewer, origin: ORIGIN },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('x-total-count')).toBe(String(N));
    const reader = res.body?.getReader();
    if (!reader) throw new Error('no body');
    let reads = 0;
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      reads++;
      bytes += value.byteLength;
    }
    expect(reads).toBeGreaterThan(2);
    expect(bytes).toBeGreaterThan(N * 100);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a result larger than the export limit is refused with 422 saying how to narrow it', async () => {
  const before = exportLimits.rows;
  exportLimits.rows = 1000;
  try {
    const res = await exportOf({ q: 'action:blocked' });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('export_limit');
    expect(res.json.error.message).toBe(
      `An export holds at most 1,000 events and ${Math.ceil(N / 3).toLocaleString('en')} match: narrow the time range (from, to) or the query (q).`,
    );
    const fits = await exportOf({ q: 'action:blocked', from: '2026-11-20T11:55:00.000Z' });
    expect(fits.status).toBe(200);
  } finally {
    exportLimits.rows = before;
  }
});
