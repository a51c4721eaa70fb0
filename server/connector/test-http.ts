/** Helpers of the connector's tests: a free port, and one raw request on a new connection. */
import { get } from 'node:http';
import { createServer } from 'node:net';

/**
 * A port nobody listens on right now, below Linux's ephemeral range (32768 and up): a port-0 listener or an outgoing
 * connection of a test running alongside cannot take it between this check and nginx's bind. `from` and `to` (excluded)
 * narrow the range.
 */
export async function freePort(from = 20_000, to = 32_000): Promise<number> {
  for (;;) {
    const port = from + Math.floor(Math.random() * (to - from));
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

/**
 * GET a path sent byte for byte (with optional headers) (fetch would percent-encode the quote of `id=1'`), on a new connection: a kept-alive
 * one could still reach an nginx worker finishing the previous configuration after a reload.
 */
export function rawGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port, path, headers, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}
