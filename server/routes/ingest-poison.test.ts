import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { BASE, createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

/** Runs per property: each is one ingest request through the whole app and database. */
const numRuns = 60;

let t: TestApi;
let cookie: string;
const tokens = new Map<string, string>();
// A real ModSecurity audit record, as nginx wrote it.
const sqli =
  readFileSync(new URL('../services/ingest/fixtures/audit.ndjson', import.meta.url), 'utf8').split('\n')[0] ?? '';
const good = JSON.stringify({ time: '2026-11-21T10:00:00Z', path: '/fine' });
const goodSyslog = '<14>1 2026-11-21T22:14:15Z host app - - - fine';

beforeAll(async () => {
  t = await createTestApi();
  cookie = (await t.signUp('poison@example.com')).cookie;
  const space = await t.read(t.api(cookie).spaces.$post({ json: { name: 'Poison' } }));
  for (const kind of ['json', 'modsecurity', 'syslog'] as const) {
    const source = await t.read(
      t.api(cookie).spaces[':spaceId'].sources.$post({ param: { spaceId: space.json.id }, json: { name: kind, kind } }),
    );
    tokens.set(kind, source.json.token);
  }
});
afterAll(async () => {
  await t.close();
});

/** Sends a raw body to the ingest path, as curl would. */
async function ingest(kind: string, body: string) {
  const res = await t.app.request(`${BASE}/api/ingest/${tokens.get(kind)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body,
  });
  const text = await res.text();
  return { status: res.status, text };
}

/** A ModSecurity record with one change made to its parsed form. */
function modsec(change: (record: { transaction: Record<string, unknown> }) => void): string {
  const record = JSON.parse(sqli);
  change(record);
  return JSON.stringify(record);
}

/** `{"a":{"a":…}}` nested `depth` deep around a valid generic event. */
function nested(depth: number): string {
  return `{"time":"2026-11-21T10:00:00Z","deep":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
}

describe('one poison line never fails the batch: it is refused with its reason, the rest is committed', () => {
  test.each([
    ['json', 'a lone surrogate in a field', '{"time":"2026-11-21T10:00:00Z","path":"/\\ud800"}', /path: .*Unicode/],
    ['json', 'a lone surrogate in a kept field', '{"time":"2026-11-21T10:00:00Z","x":["\\udfff"]}', /x\.0: .*Unicode/],
    ['json', 'a lone surrogate in a key', '{"time":"2026-11-21T10:00:00Z","\\ud800":1}', /Unicode/],
    ['json', 'time in year 0000', '{"time":"0000-01-01T00:00:00Z"}', /time: .*1970 and 2200/],
    ['json', 'time past year 9999 in UTC', '{"time":"9999-12-31T23:59:59-14:00"}', /time: .*1970 and 2200/],
    ['json', 'time before 1970', '{"time":"1969-12-31T23:59:59Z"}', /time: .*1970 and 2200/],
    ['json', 'a record nested 5 000 deep', nested(5000), /nested deeper than 64/],
    ['json', 'a record nested 65 deep', nested(64), /nested deeper than 64/],
    ['json', 'a record over 1 MB', JSON.stringify({ time: '2026-11-21T10:00:00Z', x: 'a'.repeat(1_100_000) }), /1 MB/],
    [
      'modsecurity',
      'a lone surrogate in a header',
      modsec((r) => {
        (r.transaction.request as { headers: Record<string, string> }).headers['User-Agent'] = 'a\ud800';
      }),
      /transaction\.request\.headers\.User-Agent: .*Unicode/,
    ],
    [
      'modsecurity',
      'an asctime of year 0000',
      modsec((r) => {
        r.transaction.time_stamp = 'Sat Jan 01 00:00:00 0000';
      }),
      /1970 and 2200/,
    ],
    ['syslog', 'a TIMESTAMP of year 0000', '<14>1 0000-01-01T00:00:00Z host app - - - m', /1970 and 2200/],
    ['syslog', 'a lone surrogate in JSON in MSG', '<14>1 2026-11-21T22:14:15Z h a - - - {"path":"\\ud800"}', /Unicode/],
    ['syslog', 'a time out of range in JSON in MSG', '<14>1 - h a - - - {"time":"0000-01-01T00:00:00Z"}', /1970/],
  ])('%s: %s', async (kind, _label, poison, reason) => {
    const fine = kind === 'syslog' ? goodSyslog : kind === 'modsecurity' ? sqli : good;
    const res = await ingest(kind, [fine, poison, fine].join('\n'));
    expect(res.status, res.text).toBe(200);
    const answer = JSON.parse(res.text);
    expect(answer.accepted).toBe(2);
    expect(answer.errors).toEqual([{ line: 2, message: expect.stringMatching(reason) }]);
  });

  test('a JSON array of syslog strings with a lone surrogate refuses that entry only', async () => {
    const res = await ingest('syslog', JSON.stringify([goodSyslog, `${goodSyslog}\ud800`]));
    expect(res.status, res.text).toBe(200);
    expect(JSON.parse(res.text)).toEqual({
      accepted: 1,
      errors: [{ line: 2, message: expect.stringMatching(/Unicode/) }],
    });
  });

  test('a JSON array nested 100 000 deep is refused as an entry, not a 500', async () => {
    const res = await ingest('json', `[${good},${'['.repeat(100_000)}${']'.repeat(100_000)}]`);
    expect(res.status, res.text).toBe(200);
    expect(JSON.parse(res.text)).toEqual({
      accepted: 1,
      errors: [{ line: 2, message: expect.stringMatching(/nested deeper than 64/) }],
    });
  });
});

// Texts an attacker (or a broken logger) puts in a record: any code unit, lone surrogates, NUL, escapes as text.
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));
const hostileText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: fc.oneof(loneSurrogate, fc.constantFrom('\0', '\\u0000', '\ufffe', '\u2028', 'a')), maxLength: 6 }),
  fc.constantFrom('\ud800', 'a\udfff', '\udbff\udbff', '\u0000', '\\', '"', '__proto__', 'constructor', ''),
);

const pad = (n: number, width: number) => String(n).padStart(width, '0');
// RFC 3339-looking times, in range and far out of it, with impossible fields and offsets.
const hostileTime = fc.oneof(
  fc
    .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-12-31T23:59:59Z'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 25 }),
      fc.constantFrom('Z', '+14:00', '-14:00', '+23:59', '-00:00'),
    )
    .map(([y, mo, d, h, zone]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:59:59${zone}`),
  fc.constantFrom(
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59-14:00',
    '1969-12-31T23:59:59.999Z',
    '2201-01-01T00:00:00Z',
    '2026-02-31T00:00:00Z',
    '+275760-09-13T00:00:00Z',
  ),
  hostileText,
);

// Any JSON value whose strings and keys are hostile texts.
const { value: hostileValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileText,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileText, tie('value'), { maxKeys: 4 }),
  ),
}));

/** `{"a":{"a":…}}` nested `depth` deep, around a valid time: only the nesting is wrong. */
const deepRecord = fc
  .integer({ min: 60, max: 6000 })
  .map((depth) => `{"time":"2026-11-21T10:00:00Z","x":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`);
const hugeRecord = JSON.stringify({ time: '2026-11-21T10:00:00Z', message: 'x', pad: 'y'.repeat(1024 * 1024) });

const genericLine = fc
  .record(
    {
      time: hostileTime,
      id: hostileText,
      ip: hostileText,
      path: hostileText,
      status: fc.oneof(fc.integer({ min: -5, max: 1200 }), hostileValue),
      severity: fc.oneof(fc.constantFrom('critical', 'info'), hostileValue),
      tags: fc.array(hostileText, { maxLength: 3 }),
      ruleIds: fc.array(fc.integer({ min: -1, max: 2 ** 32 }), { maxLength: 3 }),
      extra: hostileValue,
    },
    { requiredKeys: [] },
  )
  .map((record) => JSON.stringify(record));

const asctime = fc
  .tuple(
    fc.constantFrom('Jan', 'Feb', 'Dec', 'Foo'),
    fc.integer({ min: 0, max: 32 }),
    fc.integer({ min: 0, max: 99999 }),
  )
  .map(([month, day, year]) => `Sat ${month} ${day} 12:00:00 ${pad(year, 4)}`);
const modsecurityLine = fc
  .record({
    time: fc.oneof(asctime, hostileText),
    uri: hostileText,
    agent: hostileText,
    code: fc.oneof(fc.integer({ min: -1, max: 1000 }), hostileValue),
    message: hostileValue,
    extra: hostileValue,
  })
  .map(({ time, uri, agent, code, message, extra }) => {
    const record = JSON.parse(sqli);
    record.transaction.time_stamp = time;
    record.transaction.request.uri = uri;
    record.transaction.request.headers['User-Agent'] = agent;
    record.transaction.response.http_code = code;
    record.transaction.messages.push(message);
    record.transaction.extra = extra;
    return JSON.stringify(record);
  });

const syslogLine = fc
  .record({
    pri: fc.integer({ min: 0, max: 300 }),
    stamp: fc.oneof(fc.constant('-'), hostileTime),
    host: fc.oneof(fc.constant('host'), hostileText),
    sd: fc.constantFrom('-', '[a b="c"]', '[a b="\\"]', '[x'),
    msg: fc.oneof(hostileText, genericLine),
  })
  .map(({ pri, stamp, host, sd, msg }) => `<${pri}>1 ${stamp} ${host || '-'} app - - ${sd} ${msg}`);

/** Lines of every parser and none, most of them the kind's own (so its parser sees the hostile values). */
function linesFor(kind: string) {
  return fc.oneof(
    { arbitrary: genericLine, weight: kind === 'json' ? 6 : 2 },
    { arbitrary: modsecurityLine, weight: kind === 'modsecurity' ? 6 : 2 },
    { arbitrary: syslogLine, weight: kind === 'syslog' ? 6 : 2 },
    { arbitrary: deepRecord, weight: 1 },
    { arbitrary: fc.constant(hugeRecord), weight: 1 },
    { arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'undefined'), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  );
}

/** A line as NDJSON keeps it: one line, not blank (blank lines are skipped, not counted). */
function counted(line: string): boolean {
  return !line.includes('\n') && line.trim() !== '';
}

/** Posts a body; answers the status and the answer, which must never be a 5xx. */
async function ingestChecked(kind: string, body: string) {
  const { status, text } = await ingest(kind, body);
  expect(status, text).toBeLessThan(500);
  return { status, answer: JSON.parse(text) as { accepted: number; errors: { line: number }[] } };
}

/** Every line is accounted for once: accepted, or refused with its own line number. */
function expectEveryLine(answer: { accepted: number; errors: { line: number }[] }, lines: number) {
  expect(answer.accepted + answer.errors.length).toBe(lines);
  expect(new Set(answer.errors.map((e) => e.line)).size).toBe(answer.errors.length);
}

describe('ingest never answers 5xx, and accepted + errors = lines, whatever the lines', () => {
  test.each(['json', 'modsecurity', 'syslog'])('NDJSON to a %s source', async (kind) => {
    await fc.assert(
      fc.asyncProperty(fc.array(linesFor(kind), { minLength: 1, maxLength: 8 }), async (generated) => {
        // A first line of "[" would make the body a JSON array: start with a plain valid one.
        const lines = [JSON.stringify({ time: '2026-11-21T10:00:00Z' }), ...generated.filter(counted)];
        const { status, answer } = await ingestChecked(kind, lines.join('\n'));
        expect(status).toBe(200);
        expectEveryLine(answer, lines.length);
      }),
      { numRuns },
    );
  });

  test.each(['json', 'modsecurity', 'syslog'])('a JSON array to a %s source', async (kind) => {
    const entry = fc.oneof(
      genericLine,
      modsecurityLine,
      deepRecord,
      hostileValue.map((v) => JSON.stringify(v) ?? 'null'),
    );
    const syslogEntry = fc.oneof(syslogLine, hostileText).map((line) => JSON.stringify(line));
    await fc.assert(
      fc.asyncProperty(
        fc.array(kind === 'syslog' ? syslogEntry : entry, { minLength: 1, maxLength: 8 }),
        async (entries) => {
          const { status, answer } = await ingestChecked(kind, `[${entries.join(',')}]`);
          expect(status).toBe(200);
          expectEveryLine(answer, entries.length);
        },
      ),
      { numRuns },
    );
  });
});
