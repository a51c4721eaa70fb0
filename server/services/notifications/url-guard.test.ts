import { expect, test } from 'vitest';
import { readConfig } from '../../config.ts';
import { webhookUrlProblem } from './url-guard.ts';

const production = { production: true, webhookAllowedHosts: [] };
const development = { production: false, webhookAllowedHosts: [] };

/** The problem's words, or 'allowed'. */
async function verdict(url: string, config: { production: boolean; webhookAllowedHosts: string[] }) {
  return (await webhookUrlProblem(url, config)) ?? 'allowed';
}

test.each([
  { url: 'http://127.0.0.1:8080/hook', expected: 'allowed' },
  { url: 'http://localhost:9000/hook', expected: 'allowed' },
  { url: 'http://[::1]/hook', expected: 'allowed' },
  { url: 'http://127.8.9.10/hook', expected: 'allowed' },
])('outside production, the loopback receiver $url is $expected', async ({ url, expected }) => {
  expect(await verdict(url, development)).toBe(expected);
});

test.each([
  {
    url: 'http://127.0.0.1:8080/hook',
    expected:
      '“127.0.0.1” is a loopback address: webhooks may not reach it. List the host in WEBHOOK_ALLOWED_HOSTS to allow it.',
  },
  {
    url: 'http://localhost:9000/hook',
    expected:
      '“localhost” resolves to 127.0.0.1, a loopback address: webhooks may not reach it. List the host in WEBHOOK_ALLOWED_HOSTS to allow it.',
  },
  {
    url: 'http://[::1]/hook',
    expected:
      '“::1” is a loopback address: webhooks may not reach it. List the host in WEBHOOK_ALLOWED_HOSTS to allow it.',
  },
])('in production, $url is refused: $expected', async ({ url, expected }) => {
  expect(await verdict(url, production)).toBe(expected);
});

test.each([
  { url: 'http://10.1.2.3/hook', expected: 'a private address' },
  { url: 'http://172.16.5.4/hook', expected: 'a private address' },
  { url: 'http://172.31.255.255/hook', expected: 'a private address' },
  { url: 'https://192.168.1.10/hook', expected: 'a private address' },
  { url: 'http://100.64.0.1/hook', expected: 'a private address' },
  { url: 'http://169.254.169.254/latest/meta-data', expected: 'a link-local address' },
  { url: 'http://0.0.0.0:8080/', expected: 'the unspecified address' },
  { url: 'http://224.0.0.1/', expected: 'a multicast address' },
  { url: 'http://255.255.255.255/', expected: 'the broadcast address' },
  { url: 'http://[fd12:3456::1]/hook', expected: 'a private address' },
  { url: 'http://[fe80::1]/hook', expected: 'a link-local address' },
  { url: 'http://[::]/hook', expected: 'the unspecified address' },
  { url: 'http://[ff02::1]/hook', expected: 'a multicast address' },
  // An IPv4 address written as IPv6 is judged as the IPv4 address.
  { url: 'http://[::ffff:10.0.0.1]/hook', expected: 'a private address' },
  { url: 'http://[::ffff:127.0.0.1]/hook', expected: 'a loopback address' },
])('$url is refused in production as $expected', async ({ url, expected }) => {
  expect(await verdict(url, production)).toContain(`${expected}: webhooks may not reach it`);
});

test.each([
  { url: 'http://10.1.2.3/hook', expected: 'a private address' },
  { url: 'http://169.254.169.254/latest/meta-data', expected: 'a link-local address' },
  { url: 'http://[fe80::1]/hook', expected: 'a link-local address' },
  { url: 'http://[fd12:3456::1]/hook', expected: 'a private address' },
])('outside production too, $url is refused as $expected', async ({ url, expected }) => {
  expect(await verdict(url, development)).toContain(`${expected}: webhooks may not reach it`);
});

test.each([
  { url: 'http://8.8.8.8/hook', expected: 'allowed' },
  { url: 'https://203.0.113.7:8443/hook', expected: 'allowed' },
  { url: 'http://172.32.0.1/hook', expected: 'allowed' },
  { url: 'http://100.128.0.1/hook', expected: 'allowed' },
  { url: 'http://[2606:4700::1111]/hook', expected: 'allowed' },
])('the public address $url is $expected in production', async ({ url, expected }) => {
  expect(await verdict(url, production)).toBe(expected);
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
      'The host “nothing-here.invalid” does not resolve (ENOTFOUND).',
    );
});

test('an address that is not http or https is refused', async () => {
  expect(await verdict('ftp://8.8.8.8/hook', production)).toBe('Use an http:// or https:// address.');
  expect(await verdict('not a url', production)).toBe('This is not a valid address: use an http:// or https:// URL.');
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
