// The body limits through a real HTTP server: app.request() has no socket, and what happens to it is the point.
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createApp } from './app.ts';
import { silentLogger } from './services/shared/logger.ts';
import { freshDatabase } from './test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let port: number;
let stop: () => Promise<void>;
beforeAll(async () => {
  const { database, drop } = await freshDatabase();
  const app = createApp({ db: database.db, log: silentLogger, config: { production: false } });
  const server = createAdaptorServer({ fetch: app.fetch });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  port = (server.address() as AddressInfo).port;
  stop = async () => {
    await new Promise((closed) => server.close(closed));
    await drop();
  };
});
afterAll(async () => {
  await stop();
});

type Exchange = { status: number; headers: Map<string, string>; closed: boolean };

/**
 * Sends one raw request (`head` then `body`) and reads the answer's head; `closed` says whether the server ended
 * the connection within a second after answering.
 */
function exchange(head: string, body: Buffer): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let answered: Omit<Exchange, 'closed'> | undefined;
    const finish = (closed: boolean) => {
      socket.destroy();
      if (answered) resolve({ ...answered, closed });
      else reject(new Error(`no answer: ${JSON.stringify(received.slice(0, 200))}`));
    };
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (answered || !received.includes('\r\n\r\n')) return;
      const [statusLine = '', ...lines] = received.slice(0, received.indexOf('\r\n\r\n')).split('\r\n');
      const headers = new Map(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      answered = { status: Number(statusLine.split(' ')[1]), headers };
      setTimeout(() => finish(false), 1000);
    });
    socket.on('close', () => finish(true));
    // The server may stop reading once it has answered: a failed write is part of the test, not a failure.
    socket.on('error', () => undefined);
    socket.write(head);
    socket.write(body);
  });
}

const twoMb = Buffer.alloc(2 * 1024 * 1024, 'a');

test.each([
  ['the API limit, by Content-Length', '/api/auth/login', 'content-length: 2097152', twoMb],
  ['the ingest limit, by Content-Length', '/api/ingest/sgi_none', 'content-length: 11534336', twoMb],
])('over %s: 413 with Connection: close, and the connection ends', async (_label, path, length, body) => {
  const answer = await exchange(
    `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n${length}\r\n\r\n`,
    body,
  );
  expect(answer.status).toBe(413);
  expect(answer.headers.get('connection')).toBe('close');
  expect(answer.closed).toBe(true);
});

test('over the API limit in chunks: 413 with Connection: close', async () => {
  const chunk = Buffer.concat([Buffer.from(`${twoMb.length.toString(16)}\r\n`), twoMb, Buffer.from('\r\n0\r\n\r\n')]);
  const answer = await exchange(
    'POST /api/auth/login HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n',
    chunk,
  );
  expect(answer.status).toBe(413);
  expect(answer.headers.get('connection')).toBe('close');
  expect(answer.closed).toBe(true);
});

test('an answer within the limit keeps the connection open', async () => {
  const answer = await exchange('GET /api/health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n', Buffer.alloc(0));
  expect(answer.status).toBe(200);
  expect(answer.headers.get('connection')).toBe('keep-alive');
  expect(answer.closed).toBe(false);
});
