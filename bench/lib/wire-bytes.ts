/** What an HTTP answer weighs on the wire: its body bytes as sent (not decoded) under a given Accept-Encoding. */
import { request } from 'node:http';

/** The bytes of the body as the server sent it and the Content-Encoding it used (`identity` when none). */
export type WireSize = { bytes: number; encoding: string };

/** GETs `url` with `Accept-Encoding: acceptEncoding` and counts the body's bytes without decoding them. */
export function wireSize(url: string, acceptEncoding: string, headers: Record<string, string> = {}): Promise<WireSize> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { ...headers, 'accept-encoding': acceptEncoding } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.byteLength;
      });
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`GET ${url}: ${res.statusCode}`));
        else resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
