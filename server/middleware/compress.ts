/**
 * Compression of API answers: brotli when the client accepts `br`, else gzip, else none. Hono's own `compress`
 * (4.13) knows only gzip and deflate, and skips streams of unknown length; this one compresses them as they come.
 */
import { Duplex } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';

/** Answers shorter than this (bytes) are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD = 1024;

/** A content coding the API answers with. */
export type Coding = 'br' | 'gzip';

// JSON, NDJSON, problem+json, CSV and other text; never Server-Sent Events, whose messages must not wait in a buffer.
const compressible = /^(?:application\/(?:json|x-ndjson|problem\+json)|text\/(?!event-stream\b)[\w.+-]+)\s*(?:;|$)/i;
const noTransform = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/** The coding for an `Accept-Encoding` header: br if it is accepted (and not less than gzip), else gzip, else none. */
export function codingFor(header: string | undefined): Coding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const weight = (coding: string): number => weights.get(coding) ?? weights.get('*') ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  if (br > 0 && br >= gzip) return 'br';
  return gzip > 0 ? 'gzip' : null;
}

/**
 * A compressor as a web stream pair. Every chunk written is flushed out at once (a sync flush), so a streamed
 * answer such as the export reaches the client chunk by chunk instead of when the compressor's buffer fills.
 */
function compressor(coding: Coding): ReadableWritablePair<Uint8Array, Uint8Array> {
  const zip =
    coding === 'br'
      ? createBrotliCompress({
          flush: constants.BROTLI_OPERATION_FLUSH,
          params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
        })
      : createGzip({ level: 6, flush: constants.Z_SYNC_FLUSH });
  return Duplex.toWeb(zip) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
}

/** The first `limit` bytes of a body (or all of it, if shorter), and whether the body ended there. */
async function peek(body: ReadableStream<Uint8Array>, limit: number) {
  const reader = body.getReader();
  const head: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const read = await reader.read();
    if (read.done) return { reader, head, size, done: true };
    head.push(read.value);
    size += read.value.byteLength;
  }
  return { reader, head, size, done: false };
}

/** The chunks already read, then the rest of the reader's body; cancelling it cancels the body (the client left). */
function rejoin(head: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>, done: boolean) {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of head) controller.enqueue(chunk);
      if (done) controller.close();
    },
    async pull(controller) {
      const read = await reader.read();
      if (read.done) controller.close();
      else controller.enqueue(read.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * Compresses answers of compressible types when the client accepts br or gzip, and says `Vary: Accept-Encoding`
 * on them. Left alone: HEAD, 204, 206, 304, answers already encoded or marked `no-transform`, and answers under
 * COMPRESS_THRESHOLD; a body of unknown length is read up to the threshold to tell, then streamed on compressed.
 */
export const compress = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const res = c.res;
  const type = res.headers.get('Content-Type') ?? '';
  if (
    c.req.method === 'HEAD' ||
    !res.body ||
    [204, 206, 304].includes(res.status) ||
    res.headers.has('Content-Encoding') ||
    !compressible.test(type) ||
    noTransform.test(res.headers.get('Cache-Control') ?? '')
  ) {
    return;
  }
  const vary = res.headers.get('Vary');
  if (vary !== '*' && !/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary ?? '')) {
    res.headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  }
  const coding = codingFor(c.req.header('Accept-Encoding'));
  const length = res.headers.get('Content-Length');
  if (!coding || (length !== null && Number(length) < COMPRESS_THRESHOLD)) return;

  const { reader, head, size, done } = await peek(res.body, COMPRESS_THRESHOLD);
  if (done && size < COMPRESS_THRESHOLD) {
    // The whole body was shorter than the threshold: sent as it was.
    c.res = new Response(rejoin(head, reader, true), res);
    return;
  }
  // Hono copies the old answer's headers onto the new one, so they are changed after.
  c.res = new Response(rejoin(head, reader, done).pipeThrough(compressor(coding)), res);
  c.res.headers.delete('Content-Length');
  c.res.headers.set('Content-Encoding', coding);
  // The compressed bytes are another representation: a strong validator becomes weak (If-None-Match compares weakly).
  const etag = c.res.headers.get('ETag');
  if (etag && !etag.startsWith('W/')) c.res.headers.set('ETag', `W/${etag}`);
});
