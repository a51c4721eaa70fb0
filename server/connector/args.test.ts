/** The command line of `npm run waf`: what it accepts and what it refuses before anything starts. */
import { expect, test } from 'vitest';
import { parseOptions } from './args.ts';
import { overrideUpstream } from './version-folder.ts';

const required = ['--api', 'http://127.0.0.1:4321', '--token', 'sgf_0123456789', '--listen', '127.0.0.1:8080'];

test('the documented command, with defaults for what it leaves out', () => {
  expect(parseOptions(required, {})).toEqual({
    api: 'http://127.0.0.1:4321',
    token: 'sgf_0123456789',
    listen: { text: '127.0.0.1:8080', host: '127.0.0.1', port: 8080 },
    upstream: null,
    stateDir: 'data/waf',
    pollSeconds: 2,
  });
  const all = [...required, '--upstream', 'http://127.0.0.1:3000', '--state-dir', '/srv/waf', '--poll-seconds', '5'];
  expect(parseOptions(all, {})).toMatchObject({
    upstream: 'http://127.0.0.1:3000',
    stateDir: '/srv/waf',
    pollSeconds: 5,
  });
});

test('the token may come from SPACEGUARD_FIREWALL_TOKEN instead', () => {
  const withoutToken = required.filter((_, i) => i !== 2 && i !== 3);
  expect(parseOptions(withoutToken, { SPACEGUARD_FIREWALL_TOKEN: 'sgf_fromenv123' }).token).toBe('sgf_fromenv123');
});

test.each([
  { change: ['--api', 'ftp://x'], expected: /--api/ },
  { change: ['--listen', '8080'], expected: /--listen/ },
  { change: ['--upstream', 'http://127.0.0.1:3000/app'], expected: /--upstream/ },
  { change: ['--poll-seconds', 'soon'], expected: /--poll-seconds/ },
  { change: ['--token', 'short'], expected: /--token/ },
  { change: ['--unknown', 'x'], expected: /unknown/i },
])('refuses $change with a message naming the option', ({ change, expected }) => {
  const argv = [...required];
  const at = argv.indexOf(change[0] ?? '');
  if (at >= 0) argv[at + 1] = change[1] ?? '';
  else argv.push(...change);
  expect(() => parseOptions(argv, {})).toThrow(expected);
});

test.each([
  {
    upstream: 'http://10.0.0.5:3000',
    server:
      'location / {\n    proxy_pass http://127.0.0.1:9;\n}\nlocation "/login" {\n    limit_req zone=a;\n    proxy_pass http://127.0.0.1:9;\n}\n',
    expected:
      'location / {\n    proxy_pass http://10.0.0.5:3000;\n}\nlocation "/login" {\n    limit_req zone=a;\n    proxy_pass http://10.0.0.5:3000;\n}\n',
  },
  {
    upstream: 'https://app.internal:8443/',
    server: 'location / {\n    proxy_pass http://127.0.0.1:9;\n}\n',
    expected: 'location / {\n    proxy_pass https://app.internal:8443;\n}\nproxy_ssl_server_name on;\n',
  },
])('--upstream $upstream rewrites only the proxy_pass lines', ({ upstream, server, expected }) => {
  expect(overrideUpstream(server, upstream)).toBe(expected);
});
