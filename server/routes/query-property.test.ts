import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { queryLimits } from '../../contract/constants/events.ts';
import { matchesEvent, type QueryableEvent } from '../../contract/query/match.ts';
import { parseQuery, queryFields } from '../../contract/query/parse.ts';
import { sampleEvents, sampleFirewalls } from '../../contract/query/test-cases.ts';
import { BASE, createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

/** Runs per property: each is one to three searches through the whole app and database. */
const numRuns = 150;

let t: TestApi;
let cookie: string;
let spaceId: string;
/** The space's events as the API shows them: what the in-memory matcher is run over. */
let stored: (QueryableEvent & { id: string })[];

const now = Date.now();
const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();

/**
 * The matcher's sample events (every field, missing values, IPv6, a mapped and a malformed address, LIKE
 * metacharacters, firewalls) plus one with non-ASCII text, quotes and a backslash; nulls are left out of the
 * records, and the country comes from the ingest's own lookup.
 */
const EVENTS = [
  ...sampleEvents,
  { name: 'unicode', action: 'logged', severity: 'low', message: 'Caf\u00e9 \u00dcn\u00efcode "quoted" back\\slash' },
].map(({ name: _name, country: _country, ...event }, i) => ({
  time: at(i + 1),
  ...Object.fromEntries(Object.entries(event).filter(([, value]) => value != null)),
})) as (QueryableEvent & { time: string })[];

beforeAll(async () => {
  t = await createTestApi();
  cookie = (await t.signUp('query-property@example.com')).cookie;
  spaceId = (await t.read(t.api(cookie).spaces.$post({ json: { name: 'Queries' } }))).json.id;
  const source = await t.read(
    t.api(cookie).spaces[':spaceId'].sources.$post({ param: { spaceId }, json: { name: 'e', kind: 'json' } }),
  );
  const res = await t.app.request(`${BASE}/api/ingest/${source.json.token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: EVENTS.map((event) => JSON.stringify(event)).join('\n'),
  });
  expect(await res.json()).toEqual({ accepted: EVENTS.length, errors: [] });
  const all = await t.read(
    t.api(cookie).spaces[':spaceId'].events.$get({ param: { spaceId }, query: { limit: '500' } }),
  );
  stored = all.json.items;
  expect(stored).toHaveLength(EVENTS.length);
});
afterAll(async () => {
  await t.close();
});

/** Percent-encodes as UTF-8, a lone surrogate as the three bytes it would have (WTF-8), which no decoder accepts. */
function encodeQuery(text: string): string {
  let out = '';
  for (const ch of text) {
    const unit = ch.codePointAt(0) ?? 0;
    if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}

const endpoints = ['events', 'events/histogram', 'events/facets'] as const;
type Endpoint = (typeof endpoints)[number];

/** Searches one endpoint with a raw (already encoded) query string. */
const search = (endpoint: Endpoint, rawQuery: string) =>
  t.raw('GET', `/api/spaces/${spaceId}/${endpoint}?${rawQuery}`, { cookie });

const refusalCodes = ['query_invalid', 'query_limit', 'validation'];

/** 200, or a 400 that names the query's problem; never a 5xx. */
function expectAnswered(res: { status: number; text: string; json: unknown }) {
  expect(res.status, res.text).toBeLessThan(500);
  if (res.status === 200) return;
  expect(res.status, res.text).toBe(400);
  const { error } = res.json as { error: { code: string; fields?: { q?: unknown } } };
  expect(refusalCodes, res.text).toContain(error.code);
  expect(typeof error.fields?.q, res.text).toBe('string');
  expect(String(error.fields?.q).length, res.text).toBeGreaterThan(0);
}

// ---- Hostile queries -------------------------------------------------------------------------------------------

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));
/** Anything but NUL (refused before the query language: a PostgreSQL text cannot hold it). */
const noNul = (s: string) => s.replaceAll('\0', '');
const syntaxPiece = fc.constantFrom(
  '"',
  '(',
  ')',
  '\\',
  '-',
  ' ',
  'OR',
  'AND',
  ':',
  '*',
  '..',
  '>=',
  '<',
  '=',
  '\t',
  '\u00a0',
);
const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }).map(noNul),
  fc.string({
    unit: fc.oneof(loneSurrogate, syntaxPiece, fc.constantFrom('a', '\u00e9', '\ud83d\ude00')),
    maxLength: 30,
  }),
);

const bigNumber = fc.oneof(
  fc.integer({ min: 2 ** 31 - 2, max: 2 ** 31 + 2 }),
  fc.bigInt({ min: 0n, max: 10n ** 30n }),
  fc.integer({ min: -5, max: 1000 }),
  fc.double({ noNaN: true }),
);
const cidr = fc.oneof(
  fc.tuple(fc.ipV4(), fc.integer({ min: -1, max: 40 })).map(([ip, bits]) => `${ip}/${bits}`),
  fc.tuple(fc.ipV6(), fc.integer({ min: -1, max: 130 })).map(([ip, bits]) => `${ip}/${bits}`),
  fc.ipV4Extended(),
  fc.ipV6(),
  fc.constantFrom('::ffff:10.0.0.0/104', '10.0.0.0/8/8', '999.1.1.1', '::/0', '0.0.0.0/0', '1::2::3', 'fe80::1%eth0'),
);
const oddValue = fc.oneof(
  anyText,
  bigNumber.map(String),
  fc.tuple(bigNumber, bigNumber).map(([a, b]) => `${a}..${b}`),
  fc.tuple(fc.constantFrom('>', '>=', '<', '<=', '=', '=='), bigNumber).map(([op, n]) => `${op}${n}`),
  cidr,
  fc.uuid(),
  fc.constantFrom('blocked', 'HIGH', 'low..critical', 'FR', 'fr', 'xyz', '/admin*', 'a*b', '*', '""', '"a\\"b"', '\\'),
  anyText.map((s) => `"${s}"`),
);
const fieldName = fc
  .tuple(fc.constantFrom(...queryFields, 'foo', 'Status', 'IP', '_x'), fc.boolean())
  .map(([name, upper]) => (upper ? name.toUpperCase() : name));
const pair = fc.tuple(fc.boolean(), fieldName, oddValue).map(([neg, f, v]) => `${neg ? '-' : ''}${f}:${v}`);
const joiner = fc.constantFrom(' ', ' OR ', ' AND ', ' -', '(', ')', ' ) (', 'OR', '');
const mixed = fc
  .array(fc.tuple(fc.oneof(pair, anyText), joiner), { maxLength: 12 })
  .map((parts) => parts.map(([a, b]) => a + b).join(''));
const longToken = fc
  .tuple(
    fc.constantFrom('', 'message:', 'ua:', 'path:', 'tag:', 'host:', '"', 'message:"'),
    fc.oneof(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1990, max: 2100 })),
  )
  .map(([prefix, n]) => prefix + 'x'.repeat(n));
const deep = fc
  .tuple(fc.constantFrom('(', '-', '-(', '(-'), fc.integer({ min: 1, max: 400 }), fc.boolean())
  .map(([open, depth, balanced]) => {
    const close = open.includes('(') ? ')'.repeat(depth) : '';
    return `${open.repeat(depth)}a${balanced ? close : ''}`.slice(0, 2000);
  });
const manyOrs = fc
  .tuple(fc.integer({ min: 1, max: 80 }), fc.constantFrom('ip:10.0.0.0/8', 'status:403', 'word', 'message:x', 'tag:a*'))
  .map(([n, term]) => Array.from({ length: n }, () => term).join(' OR '));
const hostileQuery = fc.oneof(anyText, mixed, pair, longToken, deep, manyOrs);

describe('no query makes a search answer 5xx', () => {
  test('every answer is 200 or a 400 naming q', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(hostileQuery, fc.constantFrom(...endpoints), async (q, endpoint) => {
        const res = await search(endpoint, `q=${encodeQuery(q)}`);
        expectAnswered(res);
        const outcome = res.status === 200 ? '200' : res.json.error.code;
        seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
      }),
      { numRuns },
    );
    // The generators reach every outcome, so no branch of the property is vacuous.
    expect([...seen.keys()].sort()).toEqual(['200', 'query_invalid', 'query_limit', 'validation']);
  });

  test('raw, malformed percent-encoding in q never answers 5xx', async () => {
    const byte = fc.integer({ min: 0, max: 255 }).map((b) => `%${b.toString(16).padStart(2, '0')}`);
    const raw = fc
      .array(fc.oneof(byte, fc.constantFrom('%', '%z', '%E0%A4', '+', '&q=', '=', 'a', '%22', '%28')), {
        maxLength: 20,
      })
      .map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(raw, fc.constantFrom(...endpoints), async (q, endpoint) => {
        expectAnswered(await search(endpoint, `q=${q}`));
      }),
      { numRuns: 60 },
    );
  });

  test.each([
    ['a syntax error', 'foo:bar', 'query_invalid'],
    ['a limit', Array.from({ length: queryLimits.ipTerms + 1 }, (_, i) => `ip:10.0.0.${i}`).join(' '), 'query_limit'],
    ['a too long query', 'x'.repeat(2001), 'validation'],
  ])('%s is refused with its code on every endpoint', async (_label, q, code) => {
    for (const endpoint of endpoints) {
      const res = await search(endpoint, `q=${encodeQuery(q)}`);
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe(code);
      expect(res.json.error.fields.q).toBeTruthy();
    }
  });
});

// ---- Queries that parse: the API agrees with the in-memory matcher ----------------------------------------------

/** Flips the case of ASCII-only text (PostgreSQL and JavaScript may fold other letters differently). */
const maybeFlipCase = (s: string) =>
  fc.constantFrom(s, /^[\x20-\x7e]*$/.test(s) ? s.toUpperCase() : s, /^[\x20-\x7e]*$/.test(s) ? s.toLowerCase() : s);
const quote = (s: string) => `"${s.replace(/[\\"]/g, '\\$&')}"`;
const present = <T>(values: (T | null | undefined)[]) => values.filter((v): v is T => v != null);

const texts = present(EVENTS.flatMap((e) => [e.message, e.userAgent, e.path, e.host]));
/** A piece of one of the events' texts (or a near miss), quoted when it needs to be. */
const textValue = fc
  .tuple(fc.constantFrom(...texts, '%', '_', 'nothing-like-it'), fc.nat(), fc.integer({ min: 1, max: 12 }))
  .map(([s, from, length]) => s.slice(from % s.length, (from % s.length) + length) || 'x')
  .chain(maybeFlipCase)
  .map((s) => (/^[^\s()"<>=-][^\s()"]*$/.test(s) && !/^(OR|AND)$/.test(s) && !s.includes(':') ? s : quote(s)));

const number = (values: number[]) =>
  fc.oneof(fc.constantFrom(...values), fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 1000 }));
const numeric = (values: number[]) =>
  fc.oneof(
    number(values).map(String),
    fc.tuple(fc.constantFrom('>', '>=', '<', '<=', '='), number(values)).map(([op, n]) => `${op}${n}`),
    fc.tuple(number(values), number(values)).map(([a, b]) => `${Math.min(a, b)}..${Math.max(a, b)}`),
  );
const statuses = present(EVENTS.map((e) => e.status));
const rules = EVENTS.flatMap((e) => e.ruleIds ?? []);
const tags = EVENTS.flatMap((e) => e.tags ?? []);
const paths = present(EVENTS.map((e) => e.path));
/** The addresses a query can name (the malformed one cannot). */
const ips = present(EVENTS.map((e) => e.ip)).filter((ip) => parseQuery(`ip:${ip}`).ok);

const term: fc.Arbitrary<string> = fc.oneof(
  textValue,
  textValue.map((v) => `message:${v}`),
  textValue.map((v) => `ua:${v}`),
  fc.constantFrom('blocked', 'logged', 'allowed', 'BLOCKED').map((v) => `action:${v}`),
  fc
    .tuple(fc.constantFrom('', '>=', '<', '>', '<='), fc.constantFrom('info', 'low', 'medium', 'high', 'critical'))
    .map(([op, level]) => `severity:${op}${level}`),
  fc.constantFrom('low..high', 'info..info').map((v) => `severity:${v}`),
  numeric(statuses).map((v) => `status:${v}`),
  numeric(rules).map((v) => `rule:${v}`),
  fc
    .tuple(fc.constantFrom(...tags, 'attack-', 'OWASP', 'owasp_crs'), fc.boolean())
    .map(([tag, prefix]) => `tag:${prefix ? `${tag.slice(0, 4)}*` : quote(tag)}`),
  fc
    .oneof(
      fc.constantFrom(...ips),
      fc.constantFrom('10.0.0.0/8', '203.0.113.0/24', '2001:db8::/32', '::/0', '0.0.0.0/0', '::ffff:10.0.0.0/104'),
      fc.ipV4(),
      // A range around one of the events' addresses, of any width: the edges of the prefix length matter.
      fc
        .tuple(fc.constantFrom(...ips), fc.nat(128))
        .map(([ip, bits]) => `${ip}/${ip.includes(':') ? bits : bits % 33}`)
        .filter((range) => parseQuery(`ip:${range}`).ok),
    )
    .map((v) => `ip:${v}`),
  fc.constantFrom('FR', 'us', 'DE', 'zz').map((v) => `country:${v}`),
  fc.constantFrom('GET', 'post', 'Put', 'DELETE').map((v) => `method:${v}`),
  fc
    .constantFrom(...present(EVENTS.map((e) => e.host)), 'none.example')
    .chain(maybeFlipCase)
    .map((v) => `host:${v}`),
  fc
    .tuple(fc.constantFrom(...paths, '/'), fc.boolean())
    .map(([p, prefix]) => `path:${prefix ? `${p.slice(0, 5).replace(/[\s()"*]/g, '')}*` : quote(p)}`),
  fc.oneof(fc.constantFrom(...Object.values(sampleFirewalls)), fc.uuid()).map((v) => `firewall:${v}`),
);

const { query: parsingQuery } = fc.letrec<{ query: string }>((tie) => ({
  query: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    term,
    tie('query').map((q) => `-(${q})`),
    fc.array(tie('query'), { minLength: 2, maxLength: 3 }).map((qs) => `(${qs.join(' ')})`),
    fc.array(tie('query'), { minLength: 2, maxLength: 3 }).map((qs) => `(${qs.join(' OR ')})`),
    fc.tuple(tie('query'), tie('query')).map(([a, b]) => `${a} AND ${b}`),
  ),
}));

describe('for queries that parse, the API finds what the in-memory matcher finds', () => {
  test('the page, the facets total and the histogram agree with matchesEvent', async () => {
    let parsing = 0;
    let partial = 0;
    await fc.assert(
      fc.asyncProperty(parsingQuery, async (q) => {
        const parsed = parseQuery(q);
        const budget = !parsed.ok && parsed.error.limit !== undefined;
        expect(parsed.ok || budget, parsed.ok ? q : `${q}: ${parsed.error.message}`).toBe(true);
        if (!parsed.ok) return;
        parsing++;
        const expected = stored.filter((event) => matchesEvent(parsed.ast, event)).map((event) => event.id);
        if (expected.length > 0 && expected.length < stored.length) partial++;
        const encoded = `q=${encodeURIComponent(q)}`;
        const page = await search('events', `${encoded}&limit=500`);
        expect(page.status, page.text).toBe(200);
        expect(page.json.items.map((event: { id: string }) => event.id).sort(), q).toEqual([...expected].sort());
        const facets = await search('events/facets', encoded);
        expect(facets.status, facets.text).toBe(200);
        expect(facets.json.total, q).toBe(expected.length);
        const histogram = await search('events/histogram', encoded);
        expect(histogram.status, histogram.text).toBe(200);
        const total = histogram.json.buckets.reduce((sum: number, b: { total: number }) => sum + b.total, 0);
        expect(total, q).toBe(expected.length);
      }),
      { numRuns },
    );
    // Most generated queries are within the budget: the property is not vacuous.
    expect(parsing).toBeGreaterThan(numRuns / 2);
    expect(partial).toBeGreaterThan(numRuns / 10);
  });
});
