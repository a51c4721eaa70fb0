import { readFileSync } from 'node:fs';
import { count, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { rowsOf } from '../db/database.ts';
import { eventRaw, events } from '../db/schema/events.ts';
import { ingestBatches } from '../db/schema/ingest-batches.ts';
import { spaces } from '../db/schema/spaces.ts';
import { eventUsage } from '../db/schema/usage.ts';
import { secondsToNextMonth } from '../services/ingest/store.ts';
import { BASE, createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let t: TestApi;
let cookie: string;
// The SQL injection record exactly as nginx wrote it (first line of the audit log).
const sqli =
  readFileSync(new URL('../services/ingest/fixtures/audit.ndjson', import.meta.url), 'utf8').split('\n')[0] ?? '';

beforeAll(async () => {
  t = await createTestApi();
  cookie = (await t.signUp('ingest@example.com')).cookie;
});
afterAll(async () => {
  await t.close();
});

/** A fresh space with one source of a kind; answers their ids and the token. */
async function newSource(kind: 'modsecurity' | 'json' | 'syslog' = 'json') {
  const space = await t.read(t.api(cookie).spaces.$post({ json: { name: `S-${Math.random()}` } }));
  const source = await t.read(
    t.api(cookie).spaces[':spaceId'].sources.$post({ param: { spaceId: space.json.id }, json: { name: 'edge', kind } }),
  );
  expect(source.status).toBe(201);
  return { spaceId: space.json.id as string, sourceId: source.json.id as string, token: source.json.token as string };
}

/** Sends a raw body to the ingest path, as curl would (no cookie, no Origin). */
async function ingest(token: string, body: string, headers: Record<string, string> = {}) {
  const res = await t.app.request(`${BASE}/api/ingest/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', ...headers },
    body,
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely
  return { status: res.status, headers: res.headers, json: (await res.json()) as any };
}

async function storedIn(spaceId: string): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(events).where(eq(events.spaceId, spaceId));
  return row?.n ?? 0;
}

const ev = (i: number) => JSON.stringify({ time: '2026-11-21T10:00:00Z', path: `/p/${i}` });

describe('POST /api/ingest/{sourceToken}', () => {
  test('a NUL character in a record (an attacker can send one) is stored as U+FFFD, never failing the batch', async () => {
    const { spaceId, token } = await newSource('modsecurity');
    // A header with a NUL, written as the JSON escape, as ModSecurity logs a request that carried one; and a
    // backslash followed by "u0000" in the URI, which is text and must stay as it is.
    const record = JSON.parse(sqli);
    record.transaction.request.headers['User-Agent'] = 'evil\u0000agent';
    record.transaction.request.uri = '/nul?x=\\u0000';
    const line = JSON.stringify(record);
    expect(line).toContain('evil\\u0000agent');
    // A literal NUL inside a JSON string (not even valid JSON until it is replaced).
    const generic = '{"time":"2026-11-21T10:00:00Z","path":"/a\u0000b","message":"m\u0000"}';
    const res = await ingest(token, [line, generic].join('\n'));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ accepted: 1, errors: [expect.objectContaining({ line: 2 })] });
    const [stored] = await t.db.select().from(events).where(eq(events.spaceId, spaceId));
    expect(stored?.userAgent).toBe('evil\ufffdagent');
    expect(stored?.path).toBe('/nul?x=\\u0000');
    const [raw] = await t.db.select().from(eventRaw).where(eq(eventRaw.spaceId, spaceId));
    expect(JSON.stringify(raw?.raw)).toContain('evil\ufffdagent');

    const json = await newSource('json');
    const plain = await ingest(json.token, generic);
    expect(plain.json).toEqual({ accepted: 1, errors: [] });
    const [row] = await t.db.select().from(events).where(eq(events.spaceId, json.spaceId));
    expect(row?.path).toBe('/a\ufffdb');
    expect(row?.message).toBe('m\ufffd');
  });

  test("the raw record is stored as it was sent: numbers past JavaScript's precision keep every digit", async () => {
    const { spaceId, token } = await newSource('json');
    const lines = [
      '{"time":"2026-11-21T10:00:00Z","path":"/precise","order":12345678901234567890123,"ratio":0.1000000000000000055511151231257827,"face":"\\ud83d\\ude00"}',
      // An exponent PostgreSQL's numeric would refuse: stored as JavaScript reads the number (null), never failing.
      '{"time":"2026-11-21T10:00:01Z","path":"/huge","n":1e999999}',
    ];
    const res = await ingest(token, lines.join('\n'));
    expect(res.json).toEqual({ accepted: 2, errors: [] });
    const rows = await t.db
      .select({ path: events.path, raw: eventRaw.raw })
      .from(events)
      .innerJoin(eventRaw, eq(eventRaw.id, events.id))
      .where(eq(events.spaceId, spaceId));
    const byPath = new Map(rows.map((row) => [row.path, row.raw as Record<string, unknown>]));
    const digits = await t.db.execute(
      sql`select raw->>'order' as "order", raw->>'ratio' as ratio from event_raw where space_id = ${spaceId}::uuid and raw->>'path' = '/precise'`,
    );
    expect(rowsOf<{ order: string; ratio: string }>(digits)[0]).toEqual({
      order: '12345678901234567890123',
      ratio: '0.1000000000000000055511151231257827',
    });
    expect(byPath.get('/precise')?.face).toBe('\u{1F600}');
    expect(byPath.get('/huge')).toMatchObject({ path: '/huge', n: null });
  });

  test('a partial batch keeps the valid lines and numbers the bad ones', async () => {
    const { spaceId, token } = await newSource();
    const body = [ev(1), 'not json', '', ev(2), '{"time":"yesterday"}', sqli].join('\n');
    const res = await ingest(token, body);
    expect(res.status).toBe(200);
    expect(res.json.accepted).toBe(3);
    expect(res.json.errors.map((e: { line: number }) => e.line)).toEqual([2, 5]);
    expect(res.json.errors[0].message).toMatch(/Not valid JSON/);
    expect(res.json.errors[1].message).toMatch(/time/);
    // Committed before the answer.
    expect(await storedIn(spaceId)).toBe(3);
    const [blocked] = await t.db.select().from(events).where(eq(events.spaceId, spaceId)).orderBy(desc(events.time));
    expect(blocked).toMatchObject({ action: 'blocked', ruleIds: [942100, 949110], host: 'shop.example.com' });
  });

  test('a JSON array is accepted with positions as line numbers', async () => {
    const { spaceId, token } = await newSource();
    const res = await ingest(token, JSON.stringify([JSON.parse(ev(1)), { nope: 1 }, JSON.parse(ev(3))]), {
      'content-type': 'application/json',
    });
    expect(res.json).toEqual({ accepted: 2, errors: [{ line: 2, message: 'time: is required' }] });
    expect(await storedIn(spaceId)).toBe(2);
  });

  test('a wrong token answers 401 and stores nothing', async () => {
    const before = await t.db.select({ n: count() }).from(events);
    const res = await ingest('sgi_wrong', ev(1));
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('bad_source_token');
    expect(await t.db.select({ n: count() }).from(events)).toEqual(before);
  });

  test('over 10 MB answers 413, past the 1 MB limit of other routes', async () => {
    const { spaceId, token } = await newSource();
    const line = JSON.stringify({ time: '2026-11-21T10:00:00Z', message: 'x'.repeat(1000) });
    // 2 MB is fine here (other routes stop at 1 MB).
    const fine = await ingest(token, Array.from({ length: 2000 }, () => line).join('\n'));
    expect(fine.status).toBe(200);
    expect(fine.json.accepted).toBe(2000);
    const big = await ingest(token, Array.from({ length: 10_600 }, () => line).join('\n'));
    expect(big.status).toBe(413);
    expect(big.json.error.code).toBe('payload_too_large');
    expect(await storedIn(spaceId)).toBe(2000);
  });

  test('more than 10 000 events answers 413 and stores nothing', async () => {
    const { spaceId, token } = await newSource();
    const small = JSON.stringify({ time: '2026-11-21T10:00:00Z' });
    const res = await ingest(token, Array.from({ length: 10_001 }, () => small).join('\n'));
    expect(res.status).toBe(413);
    expect(await storedIn(spaceId)).toBe(0);
    const ok = await ingest(token, Array.from({ length: 10_000 }, () => small).join('\n'));
    expect(ok.json.accepted).toBe(10_000);
    expect(await storedIn(spaceId)).toBe(10_000);
  });

  test('batches sent at once share the last of the quota exactly: never more than the quota stored', async () => {
    const { spaceId, token } = await newSource();
    const month = new Date().toISOString().slice(0, 7);
    // Room for 12 more: four batches of 5 arrive together (each alone would fit).
    await t.db.insert(eventUsage).values({ spaceId, month, accepted: 99_988, updatedAt: t.deps.now() });
    const answers = await Promise.all(
      [0, 1, 2, 3].map((b) => ingest(token, Array.from({ length: 5 }, (_, i) => ev(100 + b * 5 + i)).join('\n'))),
    );
    const accepted = answers.reduce((sum, res) => sum + Number(res.json.accepted), 0);
    const refused = answers.reduce((sum, res) => sum + Number(res.json.refused ?? 0), 0);
    expect(accepted).toBe(12);
    expect(refused).toBe(8);
    expect(answers.filter((res) => res.status === 429).length).toBeGreaterThan(0);
    expect(await storedIn(spaceId)).toBe(12);
    const [usage] = await t.db.select().from(eventUsage).where(eq(eventUsage.spaceId, spaceId));
    expect(usage).toMatchObject({ accepted: 100_000, refused: 8 });
  });

  test('past the monthly quota: 429 with Retry-After, accepted up to the quota, refused counted', async () => {
    const { spaceId, token } = await newSource();
    const month = new Date().toISOString().slice(0, 7);
    await t.db.insert(eventUsage).values({ spaceId, month, accepted: 99_995, updatedAt: t.deps.now() });
    // Taken before the request: the server's count of seconds to the next month can only be smaller (a second may
    // tick between its answer and this line, so a bound taken afterwards would be one too small).
    const asked = new Date();
    const res = await ingest(token, Array.from({ length: 8 }, (_, i) => ev(i)).join('\n'));
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(secondsToNextMonth(asked));
    expect(res.json).toMatchObject({ error: { code: 'quota_exceeded' }, accepted: 5, refused: 3, errors: [] });
    expect(await storedIn(spaceId)).toBe(5);
    const again = await ingest(token, ev(9));
    expect(again.status).toBe(429);
    expect(again.json).toMatchObject({ accepted: 0, refused: 1 });
    const [usage] = await t.db.select().from(eventUsage).where(eq(eventUsage.spaceId, spaceId));
    expect(usage).toMatchObject({ accepted: 100_000, refused: 4 });
    // The overview's usage call says the same to the space's members.
    const shown = await t.read(t.api(cookie).spaces[':spaceId'].events.usage.$get({ param: { spaceId } }));
    expect(shown.status).toBe(200);
    expect(shown.json).toEqual({
      month,
      plan: 'free',
      quota: 100_000,
      accepted: 100_000,
      refused: 4,
      resetsAt: expect.stringMatching(/^\d{4}-\d{2}-01T00:00:00\.000Z$/),
    });
    expect(Date.parse(shown.json.resetsAt)).toBeGreaterThan(Date.now());
    // A higher plan lifts it.
    await t.db.update(spaces).set({ plan: 'pro' }).where(eq(spaces.id, spaceId));
    expect((await ingest(token, ev(10))).status).toBe(200);
  });

  test('an Idempotency-Key makes a retried batch return the same answer without inserting again', async () => {
    const { spaceId, sourceId, token } = await newSource();
    const body = [ev(1), 'oops', ev(2)].join('\n');
    const first = await ingest(token, body, { 'idempotency-key': 'batch-1' });
    const retry = await ingest(token, body, { 'idempotency-key': 'batch-1' });
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.json).toEqual(first.json);
    expect(first.json.accepted).toBe(2);
    expect(await storedIn(spaceId)).toBe(2);
    const other = await ingest(token, body, { 'idempotency-key': 'batch-2' });
    expect(other.json.accepted).toBe(2);
    expect(await storedIn(spaceId)).toBe(4);
    const batches = await t.db.select().from(ingestBatches).where(eq(ingestBatches.sourceId, sourceId));
    expect(batches).toHaveLength(2);
    const [usage] = await t.db.select().from(eventUsage).where(eq(eventUsage.spaceId, spaceId));
    expect(usage?.accepted).toBe(4);
  });

  test('the same key sent twice at once inserts once', async () => {
    const { spaceId, token } = await newSource();
    const body = Array.from({ length: 20 }, (_, i) => ev(i)).join('\n');
    const [a, b] = await Promise.all([
      ingest(token, body, { 'idempotency-key': 'twin' }),
      ingest(token, body, { 'idempotency-key': 'twin' }),
    ]);
    expect(a.json).toEqual({ accepted: 20, errors: [] });
    expect(b.json).toEqual(a.json);
    expect(await storedIn(spaceId)).toBe(20);
  });

  test('a quota refusal is replayed to a retry with the same key', async () => {
    const { spaceId, token } = await newSource();
    await t.db
      .insert(eventUsage)
      .values({ spaceId, month: new Date().toISOString().slice(0, 7), accepted: 99_999, updatedAt: t.deps.now() });
    const body = [ev(1), ev(2)].join('\n');
    const first = await ingest(token, body, { 'idempotency-key': 'q' });
    const retry = await ingest(token, body, { 'idempotency-key': 'q' });
    expect(first.status).toBe(429);
    expect(retry.status).toBe(429);
    expect(retry.headers.get('retry-after')).toBeTruthy();
    expect(retry.json).toEqual(first.json);
    const [usage] = await t.db.select().from(eventUsage).where(eq(eventUsage.spaceId, spaceId));
    expect(usage).toMatchObject({ accepted: 100_000, refused: 1 });
  });

  test('an event id deduplicates within a source', async () => {
    const { spaceId, token } = await newSource();
    const line = JSON.stringify({ time: '2026-11-21T10:00:00Z', id: 'abc' });
    await ingest(token, `${line}\n${line}`);
    await ingest(token, line);
    expect(await storedIn(spaceId)).toBe(1);
  });

  test('a rotated token stops working at once', async () => {
    const { spaceId, sourceId, token } = await newSource('syslog');
    expect((await ingest(token, '<14>1 2026-11-21T22:14:15Z h a - - - m')).json.accepted).toBe(1);
    const rotated = await t.read(
      t.api(cookie).spaces[':spaceId'].sources[':id'].token.$post({ param: { spaceId, id: sourceId } }),
    );
    expect(rotated.status).toBe(200);
    expect(rotated.json.token).not.toBe(token);
    expect((await ingest(token, '<14>1 2026-11-21T22:14:15Z h a - - - m')).status).toBe(401);
    expect((await ingest(rotated.json.token, '<14>1 2026-11-21T22:14:15Z h a - - - m')).status).toBe(200);
    expect(await storedIn(spaceId)).toBe(2);
  });

  test.each(['application/x-www-form-urlencoded', 'text/plain', 'application/json'])(
    'any content type is read as text (curl --data-binary sends %s)',
    async (type) => {
      const { spaceId, token } = await newSource();
      const res = await ingest(token, `${ev(1)}\n${ev(2)}`, { 'content-type': type });
      expect(res.json).toEqual({ accepted: 2, errors: [] });
      expect(await storedIn(spaceId)).toBe(2);
    },
  );

  test('a broken JSON array answers 400', async () => {
    const { token } = await newSource();
    const res = await ingest(token, '[{"time":');
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('bad_batch');
  });
});
