import { describe, expect, test } from 'vitest';
import { FirewallSettings } from './firewall-settings.ts';
import { defaultFirewallSettings } from './firewalls.ts';
import { rateLimitMeaning } from './rate-limits.ts';

const base = {
  ...defaultFirewallSettings,
  name: 'Shop',
  hostnames: ['shop.example.com'],
  upstream: 'http://127.0.0.1:3000',
  mode: 'block',
};

/** The messages of a parse, by field path (as the API answers them). */
function problems(changes: Record<string, unknown>): Record<string, string> {
  const result = FirewallSettings.safeParse({ ...base, ...changes });
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
}

describe('upstream', () => {
  test.each([
    ['http://127.0.0.1:30\t00', 'character 20 is a tab'],
    ['http://127.0.0.1:30\n00', 'character 20 is a line break'],
    ['http://127.0\r.0.1:3000', 'character 13 is a carriage return'],
    ['http://127.0.0.1:3000/\u0000', 'character 23 is the control character U+0000'],
    ['http://127.0.0.1\u007f:3000', 'character 17 is the control character U+007F'],
    ['http://127.0.0.1:3000\u0085', 'character 22 is U+0085'],
    ['http://127.0.\u200b0.1:3000', 'character 14 is U+200B'],
    ['http://bücher.example:80', 'character 9 is U+00FC (write an international host name in its xn-- form)'],
    ['ftp://127.0.0.1:21', 'Use http://host:port or https://host:port, without a path.'],
    ['http://127.0.0.1:3000/api', 'Use http://host:port or https://host:port, without a path.'],
  ])('%j is refused: %s', (upstream, message) => {
    expect(problems({ upstream })).toEqual({ upstream: expect.stringContaining(message) });
  });

  test.each([
    'http://127.0.0.1:3000',
    'https://shop.internal:8443/',
    'http://[::1]:8080',
    ' http://xn--bcher-kva.example:80 ',
  ])('%j is taken', (upstream) => {
    expect(problems({ upstream })).toEqual({});
  });
});

// Every free-text setting that lands in the compiled files refuses control characters inside it (leading and trailing
// white space is trimmed where the field trims), each at its own field.
const rule = (changes: Record<string, unknown>) => ({
  customRules: [
    {
      name: 'Rule',
      enabled: true,
      action: 'block',
      conditions: [{ field: 'path', operator: 'equals', value: '/x', ...changes }],
    },
  ],
});
const fields: Array<[string, (text: string) => Record<string, unknown>]> = [
  ['upstream', (c) => ({ upstream: `http://127.0.0.1:30${c}00` })],
  ['name', (c) => ({ name: `Shop${c}Main` })],
  ['hostnames.0', (c) => ({ hostnames: [`shop${c}.example.com`] })],
  ['trustedProxies.0', (c) => ({ trustedProxies: [`10.0.${c}0.0/8`] })],
  ['ipDeny.0.cidr', (c) => ({ ipDeny: [{ cidr: `192.0.${c}2.1` }] })],
  ['ipAllow.0.comment', (c) => ({ ipAllow: [{ cidr: '192.0.2.1', comment: `office${c}vpn` }] })],
  ['exclusions.0.path', (c) => ({ exclusions: [{ ruleId: 942100, path: `/a${c}b` }] })],
  ['exclusions.0.target', (c) => ({ exclusions: [{ ruleId: 942100, target: `ARGS:a${c}b` }] })],
  ['exclusions.0.method', (c) => ({ exclusions: [{ ruleId: 942100, method: `GE${c}T` }] })],
  ['exclusions.0.comment', (c) => ({ exclusions: [{ ruleId: 942100, comment: `a${c}b` }] })],
  ['customRules.0.name', (c) => ({ customRules: [{ ...rule({}).customRules[0], name: `a${c}b` }] })],
  ['customRules.0.conditions.0.value', (c) => rule({ value: `/x${c}y` })],
  ['customRules.0.conditions.0.header', (c) => rule({ field: 'header', header: `X-A${c}b` })],
  [
    'rateLimits.0.path',
    (c) => ({ rateLimits: [{ path: `/a${c}b`, requests: 5, windowSeconds: 60, action: 'block' }] }),
  ],
  ['countryBlock.0', (c) => ({ countryBlock: [`F${c}R`] })],
];
const controls = ['\t', '\n', '\r', '\u0000', '\u001b', '\u007f'];

describe.each(fields)('%s', (field, make) => {
  test.each(controls.map((c) => [JSON.stringify(c), c]))('refuses %s inside it', (_, control) => {
    expect(Object.keys(problems(make(control)))).toEqual([field]);
  });
});

describe('rate limits: only what nginx enforces exactly', () => {
  const limit = (requests: number, windowSeconds: number) => ({
    rateLimits: [{ path: '/login', requests, windowSeconds, action: 'block' }],
  });

  test.each([
    [
      5,
      3600,
      'nginx cannot count 5 requests per 3,600 s: the slowest rate it enforces is 1 request per 60 s, so 5 requests need a window of at most 300 s.',
    ],
    [
      1,
      86_400,
      'nginx cannot count 1 request per 86,400 s: the slowest rate it enforces is 1 request per 60 s, so 1 request needs a window of at most 60 s.',
    ],
    [
      2,
      7,
      'nginx counts whole requests a second or a minute, and 2 requests per 7 s is 17.14 a minute: use a window of 8 s for 2 requests, or 17 per 60 s.',
    ],
    [
      3,
      120,
      'nginx counts whole requests a second or a minute, and 3 requests per 120 s is 1.5 a minute: use a window of 90 s for 3 requests, or 2 per 60 s.',
    ],
  ])('%i per %i s is refused at the window: %s', (requests, windowSeconds, message) => {
    expect(problems(limit(requests, windowSeconds))).toEqual({ 'rateLimits.0.windowSeconds': message });
  });

  test.each([
    [5, 60, 'Lets up to 5 requests through at once, then one more every 12.05 s (nginx limit_req rate=5r/m).'],
    [1, 60, 'Lets 1 request through, then one more every 62.5 s (nginx limit_req rate=1r/m).'],
    [2, 4, 'Lets up to 2 requests through at once, then one more every 2 s (nginx limit_req rate=30r/m).'],
    [20, 1, 'Lets up to 20 requests through at once, then one more every 0.05 s (nginx limit_req rate=20r/s).'],
    [
      1440,
      86_400,
      'Lets up to 1,440 requests through at once, then one more every 62.5 s (nginx limit_req rate=1r/m).',
    ],
  ])('%i per %i s is taken and shown as nginx enforces it', (requests, windowSeconds, meaning) => {
    expect(problems(limit(requests, windowSeconds))).toEqual({});
    expect(rateLimitMeaning({ requests, windowSeconds })).toBe(meaning);
  });
});
