import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { ingestLimits } from '../../contract/constants/events.ts';
import { IngestAnswer, IngestRefusal } from '../../contract/events.ts';
import { createRouter, json, route } from '../router.ts';
import { receiveBatch, tooLarge } from '../services/ingest/receive.ts';

const IngestParams = z.object({ sourceToken: z.string().min(1).max(200) });

const ingestRouter = createRouter();
// This route's own limit (the app's 1 MB limit skips /api/ingest).
ingestRouter.use(
  '*',
  bodyLimit({
    maxSize: ingestLimits.bytes,
    onError: () => {
      throw tooLarge();
    },
  }),
);
/** `POST /api/ingest/{sourceToken}`: NDJSON or a JSON array of events, authenticated by the source's token (chained, so the typed client knows it). */
export const ingestRoutes = ingestRouter.openapi(
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
    const stored = await receiveBatch(
      c.var.deps,
      c.req.valid('param').sourceToken,
      await c.req.text(),
      c.req.valid('header')['idempotency-key'] ?? null,
    );
    if (stored.status === 429) {
      c.header('Retry-After', String(stored.retryAfter));
      return c.json(stored.answer, 429);
    }
    return c.json(stored.answer, 200);
  },
);
