import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { getRequestListener } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { AppEnv } from '../context.ts';
import { spaces } from '../db/schema/spaces.ts';
import { createTraffic } from '../demo/traffic.ts';
import { BASE, createTestApi, type TestApi } from '../test/harness.ts';
import { type Coding, codingFor, compress } from './compress.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
let cookie: string;
let spaceId: string;
const now = Date.now();
const from = new Date(now - 3_600_000).toISOString();
const to = new Date(now + 60_000).toISOString();

beforeAll(async () => {
  t = await createTestApi();
  cookie = (await t.signUp('compress@example.com')).cookie;
  spaceId = (await t.read(t.api(cookie).spaces.$post({ json: { name: 'Shop' } }))).json.id;
  await t.db.update(spaces).set({ plan: 'business' }).where(eq(spaces.id, spaceId));
  const source = await t.read(
    t
      .api(cookie)
      .spaces[':spaceId'].sources.$post({ param: { spaceId }, json: { name: 'edge nginx', kind: 'modsecurity' } }),
  );
  // 100 ModSecurity v3 audit records of the demo's shop, sent as the demo sends them.
  const records = createTraffic(11).between(new Date(from), new Date(now), 100);
  const res = await t.app.request(`${BASE}/api/ingest/${source.json.token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: records.map((record) => JSON.stringify(record)).join('\n'),
  });
  expect(await res.json()).toEqual({ accepted: 100, errors: [] });
});
afterAll(async () => {
  await t.close();
});

/** A GET as a browser or curl sends it, with this Accept-Encoding (none if undefined); the body left as bytes. */
async function get(path: string, acceptEncoding?: string, headers: Record<string, string> = {}) {
  const res = await t.app.request(`${BASE}${path}`, {
    headers: { cookie, ...headers, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) },
  });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The text of a body in a coding (identity when null); a stream cut short after a flush decodes too. */
function decode(bytes: Buffer, coding: string | null): string {
  if (coding === 'br') return brotliDecompressSync(bytes, { finishFlush: constants.BROTLI_OPERATION_FLUSH }).toString();
  if (coding === 'gzip') return gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }).toString();
  return bytes.toString();
}

const page = (limit = 100) =>
  `/api/spaces/${spaceId}/events?${new URLSearchParams({ from, to, limit: String(limit) })}`;

describe('codingFor', () => {
  test.each([
    { header: undefined, expected: null },
    { header: '', expected: null },
    { header: 'gzip, deflate, br, zstd', expected: 'br' },
    { header: 'gzip, deflate', expected: 'gzip' },
    { header: 'GZIP', expected: 'gzip' },
    { header: 'identity', expected: null },
    { header: 'deflate', expected: null },
    { header: '*', expected: 'br' },
    { header: 'br;q=0, *', expected: 'gzip' },
    { header: 'br;q=0.5, gzip;q=0.8', expected: 'gzip' },
    { header: 'br;q=0.8, gzip;q=0.8', expected: 'br' },
    { header: 'br;q=0, gzip;q=0', expected: null },
  ])('$header → $expected', ({ header, expected }) => {
    expect(codingFor(header)).toBe(expected);
  });
});

describe('API answers', () => {
  test.each([
    { acceptEncoding: 'gzip, deflate, br', expected: 'br' },
    { acceptEncoding: 'gzip', expected: 'gzip' },
    { acceptEncoding: 'identity', expected: null },
    { acceptEncoding: undefined, expected: null },
  ])(
    'a JSON answer over 1 KB asked with $acceptEncoding comes back in $expected, the same JSON',
    async ({ acceptEncoding, expected }) => {
      const plain = await get(page());
      const { res, bytes } = await get(page(), acceptEncoding);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(expected);
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(plain.bytes.length).toBeGreaterThan(1024);
      if (expected) expect(bytes.length).toBeLessThan(plain.bytes.length / 3);
      expect(JSON.parse(decode(bytes, expected))).toEqual(JSON.parse(plain.bytes.toString()));
    },
  );

  test('small answers, errors included, are not compressed', async () => {
    const health = await get('/api/health', 'br, gzip');
    expect(health.res.status).toBe(200);
    expect(health.bytes.length).toBeLessThan(1024);
    expect(health.res.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(health.bytes.toString())).toBeTruthy();
    const missing = await get('/api/no-such-path', 'br, gzip');
    expect(missing.res.status).toBe(404);
    expect(missing.res.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(missing.bytes.toString()).error.code).toBe('not_found');
  });

  test('HEAD is left alone', async () => {
    const res = await t.app.request(`${BASE}${page()}`, {
      method: 'HEAD',
      headers: { cookie, 'accept-encoding': 'br' },
    });
    expect(res.headers.get('content-encoding')).toBeNull();
  });

  test.each(['br', 'gzip'] as const)(
    'the NDJSON export streams in %s and decompresses to the same lines',
    async (coding) => {
      const path = `/api/spaces/${spaceId}/events/export?${new URLSearchParams({ from, to, format: 'ndjson' })}`;
      const plain = await get(path);
      const { res, bytes } = await get(path, coding);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(coding);
      expect(res.headers.get('content-disposition')).toMatch(/attachment; filename=".+\.ndjson"/);
      expect(res.headers.get('content-length')).toBeNull();
      const lines = decode(bytes, coding).trimEnd().split('\n');
      expect(lines).toHaveLength(100);
      expect(lines).toEqual(plain.bytes.toString().trimEnd().split('\n'));
    },
  );

  test('over a real HTTP server the export arrives chunked in br, and fetch decodes it', async () => {
    const server = createServer(getRequestListener(t.app.fetch));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const path = `/api/spaces/${spaceId}/events/export?${new URLSearchParams({ from, to, format: 'csv' })}`;
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { cookie, 'accept-encoding': 'br' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      const records = (await res.text()).trimEnd().split('\r\n');
      expect(records).toHaveLength(101);
      expect(records[0]).toMatch(/^time,/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('a 100-row event page of ModSecurity events carries no raw record and is at most 60 KB uncompressed', async () => {
    const { res, bytes } = await get(page());
    expect(res.status).toBe(200);
    const body = JSON.parse(bytes.toString()) as { items: Record<string, unknown>[] };
    expect(body.items).toHaveLength(100);
    for (const item of body.items) expect(item).not.toHaveProperty('raw');
    expect(bytes.length).toBeLessThanOrEqual(60 * 1024);
    // The detail still has it.
    const first = body.items[0] as { id: string };
    const detail = await get(`/api/spaces/${spaceId}/events/${first.id}`);
    expect(JSON.parse(detail.bytes.toString()).raw).toMatchObject({ transaction: expect.any(Object) });
  });
});

describe('the connector long poll', () => {
  test('answers its config compressed with a weak ETag, and 304 (uncompressed) to it, waiting or not', async () => {
    const created = await t.read(
      t.api(cookie).spaces[':spaceId'].firewalls.$post({
        param: { spaceId },
        json: { name: 'shop', hostnames: ['shop.example.com'], upstream: 'http://127.0.0.1:3000', mode: 'detect' },
      }),
    );
    expect(created.status, created.text).toBe(201);
    const auth = { authorization: `Bearer ${created.json.token}` };
    const plain = await get('/api/connector/config', undefined, auth);
    const { res, bytes } = await get('/api/connector/config', 'gzip, deflate, br', auth);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    const config = JSON.parse(decode(bytes, 'br'));
    expect(config).toEqual(JSON.parse(plain.bytes.toString()));
    expect(plain.res.headers.get('etag')).toBe(`"${config.hash}"`);
    expect(res.headers.get('etag')).toBe(`W/"${config.hash}"`);
    for (const query of ['', '?wait=1']) {
      const again = await get(`/api/connector/config${query}`, 'gzip, deflate, br', {
        ...auth,
        'if-none-match': res.headers.get('etag') ?? '',
      });
      expect(again.res.status).toBe(304);
      expect(again.bytes.length).toBe(0);
      expect(again.res.headers.get('content-encoding')).toBeNull();
    }
  });
});

describe('a streamed answer', () => {
  test.each(['br', 'gzip'] as const)(
    'in %s is flushed chunk by chunk, not held until it ends',
    async (coding: Coding) => {
      const first = `${JSON.stringify({ line: 1, pad: 'a'.repeat(2000) })}\n`;
      const second = `${JSON.stringify({ line: 2 })}\n`;
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const app = new Hono<AppEnv>().use(compress).get('/stream', (c) => {
        c.header('Content-Type', 'application/x-ndjson');
        return stream(c, async (out) => {
          await out.write(first);
          await held;
          await out.write(second);
        });
      });
      const res = await app.request('/stream', { headers: { 'accept-encoding': coding } });
      expect(res.headers.get('content-encoding')).toBe(coding);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      // The first line arrives, whole, while the handler still holds the second.
      const received: Buffer[] = [];
      while (decode(Buffer.concat(received), coding) !== first) {
        const read = await reader.read();
        expect(read.done).toBe(false);
        received.push(Buffer.from(read.value as Uint8Array));
      }
      release();
      for (let read = await reader.read(); !read.done; read = await reader.read())
        received.push(Buffer.from(read.value));
      expect(decode(Buffer.concat(received), coding)).toBe(first + second);
    },
  );
});
