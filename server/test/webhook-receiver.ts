/** A real webhook receiver for tests: node:http on 127.0.0.1, a port of its own, recording every request. */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver saw it. */
export type Received = { method: string; path: string; headers: IncomingHttpHeaders; body: string };

/** How the receiver answers a request: a status (with headers), or nothing at all (it hangs until the receiver stops). */
export type Answer = number | { status: number; headers: Record<string, string> } | 'hang';

/** Starts a receiver that answers each request with the next of `answers` (the last one repeats). */
export async function startReceiver(answers: Answer[] = [200]) {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = answers[Math.min(received.length, answers.length - 1)] ?? 200;
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end('ok');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    async stop() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((closed) => server.close(() => closed()));
    },
  };
}

/** A local port nothing listens on (opened, then closed): connecting is refused. */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((closed) => server.close(() => closed()));
  return port;
}
