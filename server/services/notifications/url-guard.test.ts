import { expect, test } from 'vitest';
import { readConfig } from '../../config.ts';
import { webhookUrlProblem } from './url-guard.ts';

const production = { production: true, webhookAllowedHosts: [] };
const development = { production: false, webhookAllowedHosts: [] };

/** The problem's words, or 'allowed'. */
async function verdict(url: string, config: { production: boolean; webhookAllowedHosts: string[] }) {
  return (await webhookUrlProblem(url, config)) ?? 'allowed';
}

/** A URL whose host is the address (IPv6 in brackets). */
const urlOf = (address: string) => `http://${address.includes(':') ? `[${address}]` : address}/hook`;

const refusedAs = (what: string) => `${what}; webhooks must reach a public address.`;

test.each([
  { url: 'http://127.0.0.1:8080/hook', expected: 'allowed' },
  { url: 'http://localhost:9000/hook', expected: 'allowed' },
  { url: 'http://[::1]/hook', expected: 'allowed' },
  { url: 'http://127.8.9.10/hook', expected: 'allowed' },
  { url: 'http://[::ffff:127.0.0.1]/hook', expected: 'allowed' },
])('outside production, the loopback receiver $url is $expected', async ({ url, expected }) => {
  expect(await verdict(url, development)).toBe(expected);
});

test.each([
  {
    url: 'http://127.0.0.1:8080/hook',
    expected:
      'url: “127.0.0.1” is a loopback address (127.0.0.0/8); webhooks must reach a public address. List the host in WEBHOOK_ALLOWED_HOSTS to allow it.',
  },
  {
    url: 'http://localhost:9000/hook',
    expected:
      'url: “localhost” resolves to 127.0.0.1, a loopback address (127.0.0.0/8); webhooks must reach a public address. List the host in WEBHOOK_ALLOWED_HOSTS to allow it.',
  },
  {
    url: 'http://[::1]/hook',
    expected:
      'url: “::1” is a loopback address (::1/128); webhooks must reach a public address. List the host in WEBHOOK_ALLOWED_HOSTS to allow it.',
  },
  {
    url: 'http://[::127.0.0.1]/hook',
    expected:
      'url: “::7f00:1” is an IPv4-compatible form of 127.0.0.1, a loopback address (127.0.0.0/8); webhooks must reach a public address. List the host in WEBHOOK_ALLOWED_HOSTS to allow it.',
  },
])('in production, $url is refused: $expected', async ({ url, expected }) => {
  expect(await verdict(url, production)).toBe(expected);
});

/**
 * Every entry of the IANA IPv4 and IPv6 Special-Purpose Address Registries, with an address inside it: refused
 * (naming what it is) when the registry says it is not globally reachable, allowed when it says it is. Where a
 * more specific entry says otherwise, its row shows an address of its own.
 */
test.each([
  // IPv4 Special-Purpose Address Registry.
  { address: '0.0.0.0', expected: 'the unspecified address (0.0.0.0/32)' },
  { address: '0.1.2.3', expected: 'an address of “this network” (0.0.0.0/8)' },
  { address: '10.1.2.3', expected: 'a private address (10.0.0.0/8)' },
  { address: '100.64.0.1', expected: 'a shared (carrier-grade NAT) address (100.64.0.0/10)' },
  { address: '100.127.255.254', expected: 'a shared (carrier-grade NAT) address (100.64.0.0/10)' },
  { address: '127.8.9.10', expected: 'a loopback address (127.0.0.0/8)' },
  { address: '169.254.169.254', expected: 'a link-local address (169.254.0.0/16)' },
  { address: '172.16.5.4', expected: 'a private address (172.16.0.0/12)' },
  { address: '172.31.255.255', expected: 'a private address (172.16.0.0/12)' },
  { address: '192.0.0.100', expected: 'an IETF protocol assignment (192.0.0.0/24)' },
  { address: '192.0.0.1', expected: 'an IPv4 service continuity address (192.0.0.0/29)' },
  { address: '192.0.0.8', expected: 'the IPv4 dummy address (192.0.0.8/32)' },
  { address: '192.0.0.9', expected: 'allowed' },
  { address: '192.0.0.10', expected: 'allowed' },
  { address: '192.0.0.170', expected: 'a NAT64/DNS64 discovery address (192.0.0.170/32)' },
  { address: '192.0.0.171', expected: 'a NAT64/DNS64 discovery address (192.0.0.171/32)' },
  { address: '192.0.2.1', expected: 'a documentation address (192.0.2.0/24)' },
  { address: '192.31.196.1', expected: 'allowed' },
  { address: '192.52.193.1', expected: 'allowed' },
  { address: '192.88.99.1', expected: 'a deprecated 6to4 relay anycast address (192.88.99.0/24)' },
  { address: '192.168.1.10', expected: 'a private address (192.168.0.0/16)' },
  { address: '192.175.48.1', expected: 'allowed' },
  { address: '198.18.0.1', expected: 'a benchmarking address (198.18.0.0/15)' },
  { address: '198.19.255.255', expected: 'a benchmarking address (198.18.0.0/15)' },
  { address: '198.51.100.7', expected: 'a documentation address (198.51.100.0/24)' },
  { address: '203.0.113.7', expected: 'a documentation address (203.0.113.0/24)' },
  { address: '240.0.0.1', expected: 'a reserved address (240.0.0.0/4)' },
  { address: '255.255.255.255', expected: 'the broadcast address (255.255.255.255/32)' },
  // Multicast, from its own registry.
  { address: '224.0.0.1', expected: 'a multicast address (224.0.0.0/4)' },
  { address: '239.255.255.250', expected: 'a multicast address (224.0.0.0/4)' },
  // IPv6 Special-Purpose Address Registry.
  { address: '::1', expected: 'a loopback address (::1/128)' },
  { address: '::', expected: 'the unspecified address (::/128)' },
  { address: '64:ff9b:1::a00:1', expected: 'a local-use NAT64 address (64:ff9b:1::/48)' },
  { address: '64:ff9b:1::808:808', expected: 'a local-use NAT64 address (64:ff9b:1::/48)' },
  { address: '100::1', expected: 'a discard-only address (100::/64)' },
  { address: '100:0:0:1::1', expected: 'a dummy address (100:0:0:1::/64)' },
  { address: '2001:1::4', expected: 'an IETF protocol assignment (2001::/23)' },
  { address: '2001:1ff::1', expected: 'an IETF protocol assignment (2001::/23)' },
  { address: '2001:1::1', expected: 'allowed' },
  { address: '2001:1::2', expected: 'allowed' },
  { address: '2001:1::3', expected: 'allowed' },
  { address: '2001:2::1', expected: 'a benchmarking address (2001:2::/48)' },
  { address: '2001:3::1', expected: 'allowed' },
  { address: '2001:4:112::1', expected: 'allowed' },
  { address: '2001:10::1', expected: 'a deprecated ORCHID address (2001:10::/28)' },
  { address: '2001:20::1', expected: 'allowed' },
  { address: '2001:30::1', expected: 'allowed' },
  { address: '2001:db8::1', expected: 'a documentation address (2001:db8::/32)' },
  { address: '2620:4f:8000::1', expected: 'allowed' },
  { address: '3fff::1', expected: 'a documentation address (3fff::/20)' },
  { address: '3fff:fff::1', expected: 'a documentation address (3fff::/20)' },
  { address: '5f00::1', expected: 'a segment routing (SRv6) address (5f00::/16)' },
  { address: 'fd12:3456::1', expected: 'a private (unique local) address (fc00::/7)' },
  { address: 'fc00::1', expected: 'a private (unique local) address (fc00::/7)' },
  { address: 'fe80::1', expected: 'a link-local address (fe80::/10)' },
  { address: 'febf::1', expected: 'a link-local address (fe80::/10)' },
  // Outside the registry: deprecated site-local, multicast.
  { address: 'fec0::1', expected: 'a site-local address (deprecated) (fec0::/10)' },
  { address: 'ff02::1', expected: 'a multicast address (ff00::/8)' },
])('the registry entry holding $address: $expected', async ({ address, expected }) => {
  const answer = await verdict(urlOf(address), production);
  expect(answer).toEqual(expected === 'allowed' ? 'allowed' : expect.stringContaining(refusedAs(expected)));
  if (expected !== 'allowed') expect(answer).toMatch(/^url: “[^”]+” is /);
});

/** The IPv6 forms that carry an IPv4 address, each written around `v4`. */
const wrapped: { form: string; of: (v4: string) => string }[] = [
  { form: 'an IPv4-mapped form', of: (v4) => `::ffff:${v4}` },
  { form: 'an IPv4-compatible form', of: (v4) => `::${v4}` },
  { form: 'an IPv4-translated form', of: (v4) => `::ffff:0:${v4}` },
  { form: 'a NAT64 form', of: (v4) => `64:ff9b::${v4}` },
  {
    form: 'a 6to4 form',
    of: (v4) => {
      const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
      return `2002:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}::1`;
    },
  },
  {
    // The Teredo server 65.54.227.120, port 40000; the client's address inverted in the last 32 bits.
    form: 'a Teredo form',
    of: (v4) => {
      const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map((n) => Number(n) ^ 0xff);
      return `2001:0:4136:e378:8000:63bf:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
    },
  },
];

test.each(
  wrapped.flatMap(({ form, of }) =>
    [
      { v4: '127.0.0.1', what: 'a loopback address (127.0.0.0/8)' },
      { v4: '10.0.0.1', what: 'a private address (10.0.0.0/8)' },
      { v4: '192.168.1.1', what: 'a private address (192.168.0.0/16)' },
      { v4: '169.254.169.254', what: 'a link-local address (169.254.0.0/16)' },
      { v4: '100.64.0.1', what: 'a shared (carrier-grade NAT) address (100.64.0.0/10)' },
      { v4: '198.18.0.1', what: 'a benchmarking address (198.18.0.0/15)' },
      { v4: '192.0.2.1', what: 'a documentation address (192.0.2.0/24)' },
      { v4: '0.0.0.2', what: 'an address of “this network” (0.0.0.0/8)' },
    ].map(({ v4, what }) => ({ form, address: of(v4), v4, what })),
  ),
)('$address, $form of $v4, is refused as $what', async ({ form, address, v4, what }) => {
  expect(await verdict(urlOf(address), production)).toContain(refusedAs(`${form} of ${v4}, ${what}`));
});

test.each(wrapped.map(({ form, of }) => ({ form, address: of('8.8.8.8') })))(
  '$address, $form of the public 8.8.8.8, is allowed',
  async ({ address }) => {
    expect(await verdict(urlOf(address), production)).toBe('allowed');
  },
);

test.each([
  'http://8.8.8.8/hook',
  'https://1.1.1.1:8443/hook',
  'http://172.32.0.1/hook',
  'http://100.128.0.1/hook',
  'http://198.20.0.1/hook',
  'http://192.0.3.1/hook',
  'http://223.255.255.254/hook',
  'http://[2606:4700::1111]/hook',
  'http://[2001:4860:4860::8888]/hook',
  'http://[2a00:1450:4001::1]/hook',
])('the public address %s is allowed in production', async (url) => {
  expect(await verdict(url, production)).toBe('allowed');
});

test.each([
  { url: 'http://10.1.2.3/hook', expected: 'a private address' },
  { url: 'http://169.254.169.254/latest/meta-data', expected: 'a link-local address' },
  { url: 'http://[fe80::1]/hook', expected: 'a link-local address' },
  { url: 'http://[fd12:3456::1]/hook', expected: 'a private (unique local) address' },
  { url: 'http://[::ffff:10.0.0.1]/hook', expected: 'an IPv4-mapped form of 10.0.0.1, a private address' },
])('outside production too, $url is refused as $expected', async ({ url, expected }) => {
  expect(await verdict(url, development)).toContain(expected);
});

test.each([
  { url: 'http://10.1.2.3/hook', allow: ['10.1.2.3'], expected: 'allowed' },
  { url: 'http://localhost:9000/hook', allow: ['localhost'], expected: 'allowed' },
  { url: 'http://[fd12:3456::1]/hook', allow: ['fd12:3456::1'], expected: 'allowed' },
  { url: 'http://[fd12:3456::1]/hook', allow: ['FD12:3456:0:0::1'], expected: 'allowed' },
  { url: 'http://LocalHost:9000/hook', allow: [' LOCALHOST '], expected: 'allowed' },
  { url: 'http://10.1.2.4/hook', allow: ['10.1.2.3'], expected: 'refused' },
])('in production, $url with WEBHOOK_ALLOWED_HOSTS=$allow is $expected', async ({ url, allow, expected }) => {
  const answer = await verdict(url, { production: true, webhookAllowedHosts: allow });
  expect(answer === 'allowed' ? 'allowed' : 'refused').toBe(expected);
});

test('a name that does not resolve is refused, whatever the mode', async () => {
  for (const config of [production, development])
    expect(await verdict('https://nothing-here.invalid/hook', config)).toBe(
      'url: The host “nothing-here.invalid” does not resolve (ENOTFOUND).',
    );
});

test('an address that is not http or https is refused', async () => {
  expect(await verdict('ftp://8.8.8.8/hook', production)).toBe('url: Use an http:// or https:// address.');
  expect(await verdict('not a url', production)).toBe(
    'url: This is not a valid address: use an http:// or https:// URL.',
  );
});

test('WEBHOOK_ALLOWED_HOSTS, comma-separated in the environment, lets exactly its hosts through in production', async () => {
  expect(readConfig({}).webhookAllowedHosts).toEqual([]);
  const config = readConfig({ NODE_ENV: 'production', WEBHOOK_ALLOWED_HOSTS: ' 10.0.4.12, localhost ,[fd00::7],' });
  expect(config.webhookAllowedHosts).toEqual(['10.0.4.12', 'localhost', 'fd00::7']);
  for (const url of ['http://10.0.4.12:8080/hook', 'http://localhost/hook', 'http://[fd00::7]/hook'])
    expect(await verdict(url, config), url).toBe('allowed');
  expect(await verdict('http://10.0.4.13/hook', config)).toContain('a private address');
  expect(await verdict('http://127.0.0.1/hook', config)).toContain('a loopback address');
});
