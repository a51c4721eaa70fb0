import fc from 'fast-check';
import { conditionFields, crsApplications } from '../../../../contract/constants/firewalls.ts';
import { isProtectedRule } from '../../../../contract/crs.ts';
import { FirewallSettings, RateLimit } from '../../../../contract/firewall-settings.ts';
import { loadCrsCatalog } from '../engine/crs-catalog.ts';
import { nginxCheck } from '../engine/nginx-check.ts';
import { compileFirewall } from './compile.ts';
import { nginxRate } from './nginx-conf.ts';

// Generated valid settings (held to the contract): the compiler gives the same bytes twice, and what it gives passes the
// real nginx -t. nginx -t costs about 0.1–0.3 s, so that property runs on a small sample.

const catalog = loadCrsCatalog();
const now = new Date('2026-06-01T00:00:00Z');

const noControl = (value: string) =>
  [...value].every((char) => char.charCodeAt(0) >= 0x20 && char.charCodeAt(0) !== 0x7f);
const text = (max: number) =>
  fc
    .oneof(fc.string({ minLength: 1, maxLength: max }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: max }))
    .filter((value) => value.trim().length > 0 && noControl(value));
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
/** N per W s that nginx counts exactly: a window, and a multiple of the fewest whole requests a minute over it. */
const rate = fc
  .tuple(fc.integer({ min: 1, max: 86_400 }), fc.integer({ min: 1, max: 50 }))
  .map(([windowSeconds, times]) => ({ windowSeconds, requests: times * (windowSeconds / gcd(windowSeconds, 60)) }))
  .filter(({ requests }) => requests <= 100_000);
const anyRate = fc.record({
  requests: fc.integer({ min: 1, max: 100_000 }),
  windowSeconds: fc.integer({ min: 1, max: 86_400 }),
});
const byte = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(byte, byte, byte, byte).map((parts) => parts.join('.'));
const ipv6 = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 })
  .map((words) => words.map((word) => word.toString(16)).join(':'));
const cidr = fc.oneof(
  fc
    .tuple(ipv4, fc.option(fc.integer({ min: 0, max: 32 }), { nil: undefined }))
    .map(([ip, bits]) => (bits === undefined ? ip : `${ip}/${bits}`)),
  fc
    .tuple(ipv6, fc.option(fc.integer({ min: 0, max: 128 }), { nil: undefined }))
    .map(([ip, bits]) => (bits === undefined ? ip : `${ip}/${bits}`)),
);
const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/);
const hostname = fc
  .tuple(fc.boolean(), fc.array(label, { minLength: 1, maxLength: 3 }))
  .map(([wild, labels]) => `${wild ? '*.' : ''}${labels.join('.')}.example.com`);
const path = fc.stringMatching(/^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]{0,30}$/);
const timestamp = fc
  .integer({ min: Date.parse('2025-01-01'), max: Date.parse('2027-01-01') })
  .map((ms) => new Date(ms).toISOString());
const ipEntry = fc.record({
  cidr,
  comment: fc.option(text(40), { nil: undefined }),
  expiresAt: fc.option(timestamp, { nil: undefined }),
});
/** Regexes that both the contract (JavaScript, u flag) and PCRE accept, plus escaped free text. */
const regex = fc.oneof(
  fc.constantFrom(
    '^/admin',
    '(sqlmap|nikto)',
    '\\d{3,}',
    '[^a-z]+$',
    'a"b',
    "it's",
    '100%',
    '\\.(php|asp)$',
    'caf\u00e9',
  ),
  text(30).map((value) => value.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')),
);

const condition = fc.constantFrom(...conditionFields).chain((field): fc.Arbitrary<unknown> => {
  const many = <T>(one: fc.Arbitrary<T>) => fc.oneof(one, fc.array(one, { minLength: 1, maxLength: 3 }));
  const negate = fc.option(fc.boolean(), { nil: undefined });
  if (field === 'ip')
    return fc.record({
      field: fc.constant(field),
      operator: fc.constantFrom('inCidr', 'equals'),
      value: many(cidr),
      negate,
    });
  if (field === 'country') {
    return fc.record({
      field: fc.constant(field),
      operator: fc.constant('equals'),
      value: many(fc.constantFrom('VA', 'MC', 'SM', 'LI')),
      negate,
    });
  }
  const header = field === 'header' ? fc.stringMatching(/^[A-Za-z0-9-]{1,20}$/) : fc.constant(undefined);
  return fc.oneof(
    fc.record({
      field: fc.constant(field),
      header,
      operator: fc.constantFrom('equals', 'contains', 'startsWith'),
      value: many(text(30)),
      negate,
    }),
    fc.record({ field: fc.constant(field), header, operator: fc.constant('regex'), value: regex, negate }),
  );
});

const optionalGroups = catalog.groups.filter((group) => group.optional).map((group) => group.name);
const excludable = [...catalog.ruleIds].filter((id) => !isProtectedRule(id));
const target = fc
  .tuple(
    fc.constantFrom('ARGS', 'ARGS_NAMES', 'REQUEST_COOKIES', 'REQUEST_HEADERS', 'REQUEST_URI'),
    fc.option(fc.stringMatching(/^[A-Za-z0-9_.\-[\]]{1,20}$/), { nil: undefined }),
  )
  .map(([collection, member]) => (member === undefined ? collection : `${collection}:${member}`));

const settingsArbitrary = fc
  .record({
    name: text(80),
    hostnames: fc.uniqueArray(hostname, { minLength: 1, maxLength: 3 }),
    upstream: fc
      .tuple(
        fc.constantFrom('http', 'https'),
        fc.constantFrom('127.0.0.1', '[::1]', 'localhost'),
        fc.integer({ min: 1, max: 65535 }),
      )
      .map(([scheme, host, port]) => `${scheme}://${host}:${port}`),
    mode: fc.constantFrom('off', 'detect', 'block'),
    trustedProxies: fc.uniqueArray(cidr, { maxLength: 3 }),
    managedRules: fc
      .record({
        paranoiaLevel: fc.constantFrom(1, 2, 3, 4),
        extra: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
        inboundThreshold: fc.integer({ min: 1, max: 10_000 }),
        outboundThreshold: fc.integer({ min: 1, max: 10_000 }),
        disabledGroups: fc.subarray(optionalGroups, { maxLength: 4 }),
        applications: fc.subarray([...crsApplications]),
      })
      .map(({ extra, ...rules }) => ({
        ...rules,
        ...(extra === undefined ? {} : { executingParanoiaLevel: Math.min(4, rules.paranoiaLevel + extra) }),
      })),
    exclusions: fc.array(
      fc.record(
        {
          ruleId: fc.constantFrom(...excludable),
          target,
          path,
          method: fc.stringMatching(/^[A-Z]{1,8}$/),
          comment: text(60),
        },
        { requiredKeys: ['ruleId'] },
      ),
      { maxLength: 4 },
    ),
    customRules: fc.array(
      fc.record({
        name: text(80),
        enabled: fc.boolean(),
        action: fc.constantFrom('block', 'allow', 'log'),
        conditions: fc.array(condition, { minLength: 1, maxLength: 3 }),
      }),
      { maxLength: 4 },
    ),
    ipAllow: fc.array(ipEntry, { maxLength: 4 }),
    ipDeny: fc.array(ipEntry, { maxLength: 6 }),
    countryBlock: fc.subarray(['VA', 'MC', 'SM', 'LI', 'AD']),
    rateLimits: fc.array(
      fc
        .tuple(path, rate, fc.constantFrom('block', 'log'))
        .map(([prefix, counts, action]) => ({ path: prefix, ...counts, action })),
      { maxLength: 4 },
    ),
  })
  .map((raw) => FirewallSettings.safeParse(raw))
  .filter((parsed) => parsed.success)
  .map((parsed) => parsed.data as FirewallSettings);

const input = fc.record({ firewallId: fc.uuid(), settings: settingsArbitrary });

describe('compileFirewall over generated settings', () => {
  test('same input, same bytes and hash; a file name never leaves the folder', () => {
    fc.assert(
      fc.property(input, ({ firewallId, settings }) => {
        const first = compileFirewall({ firewallId, settings, catalog, now });
        const second = compileFirewall({
          firewallId,
          settings: structuredClone(settings),
          catalog,
          now: new Date(now),
        });
        expect(second).toEqual(first);
        expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
        for (const name of Object.keys(first.files)) expect(name).toMatch(/^[A-Za-z0-9][A-Za-z0-9.-]*$/);
      }),
      { numRuns: 150 },
    );
  }, 30_000);

  test('a sample passes the real nginx -t', async () => {
    await fc.assert(
      fc.asyncProperty(input, async ({ firewallId, settings }) => {
        const { files } = compileFirewall({ firewallId, settings, catalog, now });
        expect(await nginxCheck(files)).toEqual({ ok: true });
      }),
      { numRuns: 30 },
    );
  }, 90_000);
});

test('every rate limit the contract takes compiles to exactly its rate: no rounding', () => {
  fc.assert(
    fc.property(fc.oneof(rate, anyRate), ({ requests, windowSeconds }) => {
      const limit = RateLimit.safeParse({ path: '/', requests, windowSeconds, action: 'block' });
      fc.pre(limit.success);
      const [, count = '', unit = ''] = /^(\d+)r\/([sm])$/.exec(nginxRate({ requests, windowSeconds })) ?? [];
      expect(Number(count) * windowSeconds).toBe(requests * (unit === 's' ? 1 : 60));
    }),
    { numRuns: 2_000 },
  );
});
