import { eq } from 'drizzle-orm';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import {
  IngestAnswer,
  IngestRefusal,
  ingestLimits,
  type LineError,
  type NormalisedEvent,
} from '../../contract/events.ts';
import { sources } from '../db/schema/sources.ts';
import { spaces } from '../db/schema/spaces.ts';
import { ApiError } from '../errors.ts';
import { createRouter, json, route } from '../router.ts';
import { BatchFormatError, parseEntries, splitBatch } from '../services/ingest/parse-batch.ts';
import { storeBatch } from '../services/ingest/store.ts';
import { hashToken } from '../services/shared/tokens.ts';

const IngestParams = z.object({ sourceToken: z.string().min(1).max(200) });

function tooLarge(): ApiError {
  return new ApiError(
    413,
    'payload_too_large',
    `An ingest request carries at most ${ingestLimits.bytes / 1024 / 1024} MB and ${ingestLimits.events.toLocaleString('en')} events; split the batch.`,
  );
}

/** `POST /api/ingest/{sourceToken}`: NDJSON or a JSON array of events, authenticated by the source's token. */
export const ingestRoutes = createRouter();
// This route's own limit (the app's 1 MB limit skips /api/ingest).
ingestRoutes.use(
  '*',
  bodyLimit({
    maxSize: ingestLimits.bytes,
    onError: () => {
      throw tooLarge();
    },
  }),
);
ingestRoutes.openapi(
  route('anonymous', {
    method: 'post',
    path: '/{sourceToken}',
    summary:
      'Send events: NDJSON (one JSON per line; syslog sources: one RFC 5424 line per line) or a JSON array, up to 10 MB and 10 000 events. Valid lines are committed before the answer; `Idempotency-Key` makes a retry a no-op; past the monthly quota the rest is refused with 429.',
    request: {
      params: IngestParams,
      headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
      // Documented only: the handler reads the text itself so that each line gets its own verdict.
      body: {
        required: true,
        description:
          'One event per line (a generic event, a ModSecurity v3 JSON audit record, or for syslog sources an RFC 5424 line), or a JSON array of them.',
        content: { 'application/x-ndjson': { schema: z.string() } },
      },
    },
    responses: {
      200: json(IngestAnswer, 'Accepted count and the refused lines with their reasons'),
      429: json(IngestRefusal, 'Monthly quota used up: `error`, plus what was accepted and `refused`'),
    },
  }),
  async (c) => {
    const { sourceToken } = c.req.valid('param');
    const { db, now: clock } = c.var.deps;
    const [found] = await db
      .select({ source: sources, space: spaces })
      .from(sources)
      .innerJoin(spaces, eq(spaces.id, sources.spaceId))
      .where(eq(sources.tokenHash, hashToken(sourceToken)));
    if (!found) throw new ApiError(401, 'bad_source_token', 'Unknown or rotated source token.');

    const text = await c.req.text();
    let entries: ReturnType<typeof splitBatch>;
    try {
      entries = splitBatch(text);
    } catch (error) {
      if (error instanceof BatchFormatError) throw new ApiError(400, 'bad_batch', error.message);
      throw error;
    }
    if (entries.length > ingestLimits.events) throw tooLarge();

    const now = clock();
    const valid: NormalisedEvent[] = [];
    const errors: LineError[] = [];
    for (const result of parseEntries(found.source.kind, entries, now)) {
      if (result.ok) valid.push(result.event);
      else errors.push({ line: result.line, message: result.message });
    }
    const stored = await storeBatch(db, {
      space: found.space,
      source: found.source,
      valid,
      errors,
      now,
      idempotencyKey: c.req.valid('header')['idempotency-key'] ?? null,
    });
    if (stored.status === 429) {
      c.header('Retry-After', String(stored.retryAfter));
      return c.json(stored.answer, 429);
    }
    return c.json(stored.answer, 200);
  },
);
