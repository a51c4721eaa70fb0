/** What each answer of `POST /api/connector/events` means for the tailer: move on, or send the same batch again. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ConnectorApi } from './api-client.ts';
import { eventShipper } from './ship-events.ts';
import { freePort } from './test-http.ts';

let server: Server;
let base = '';
let next = { status: 200, body: '{"accepted":1,"errors":[]}' };
const seen: Array<{ key: string | undefined; auth: string | undefined; type: string | undefined; body: string }> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      seen.push({
        key: request.headers['idempotency-key'] as string | undefined,
        auth: request.headers.authorization,
        type: request.headers['content-type'],
        body,
      });
      response.writeHead(next.status, { 'content-type': 'application/json' }).end(next.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

test.each([
  { status: 200, body: '{"accepted":2,"errors":[]}', expected: 'done', logged: null },
  {
    status: 200,
    body: '{"accepted":1,"errors":[{"line":2,"message":"bad"}]}',
    expected: 'done',
    logged: /1 of 2 records refused/,
  },
  {
    status: 429,
    body: '{"accepted":0,"errors":[],"refused":2,"error":{"code":"quota","message":"q"}}',
    expected: 'done',
    logged: /quota/,
  },
  { status: 400, body: '{"error":{"code":"validation","message":"Empty body."}}', expected: 'done', logged: /skipped/ },
  {
    status: 401,
    body: '{"error":{"code":"bad_firewall_token","message":"Unknown or rotated firewall token."}}',
    expected: 'retry',
    logged: /rotated/,
  },
  { status: 503, body: 'busy', expected: 'retry', logged: /503/ },
])('answer $status → $expected', async ({ status, body, expected, logged }) => {
  next = { status, body };
  const lines: string[] = [];
  const send = eventShipper(new ConnectorApi(base, 'sgf_token123'), (line) => lines.push(line));
  expect(await send('{"a":1}\n{"b":2}\n', 'audit-1.2-abc-0-16', 2)).toBe(expected);
  expect(seen.at(-1)).toEqual({
    key: 'audit-1.2-abc-0-16',
    auth: 'Bearer sgf_token123',
    type: 'application/x-ndjson',
    body: '{"a":1}\n{"b":2}\n',
  });
  if (logged) expect(lines.join('\n')).toMatch(logged);
  else expect(lines).toEqual([]);
});

test('the API unreachable: retry', async () => {
  const lines: string[] = [];
  const send = eventShipper(new ConnectorApi(`http://127.0.0.1:${await freePort()}`, 'sgf_token123'), (line) =>
    lines.push(line),
  );
  expect(await send('{}\n', 'k', 1)).toBe('retry');
  expect(lines.join('\n')).toMatch(/ECONNREFUSED.*will send again/);
});
