import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { ingestLimits } from '../../contract/constants/events.ts';
import { IngestAnswer, IngestRefusal } from '../../contract/events.ts';
import {
  ConnectorConfig,
  ConnectorConfigQuery,
  ConnectorStatus,
  ConnectorStatusBody,
} from '../../contract/firewalls.ts';
import type { AppEnv } from '../context.ts';
import { createRouter, json, route } from '../router.ts';
import {
  bearer,
  type ConnectorCall,
  connectorConfig,
  receiveConnectorEvents,
  reportStatus,
} from '../services/firewalls/connector/connector.ts';
import { tooLarge } from '../services/ingest/receive.ts';

/** The connector's request as the services take it: its firewall token is read there, from `Authorization`. */
function connectorCall(c: Context<AppEnv>): ConnectorCall {
  return {
    deps: c.var.deps,
    authorization: c.req.header('authorization'),
    actor: c.var.actor,
    abort: c.req.raw.signal,
  };
}

/** The firewall token, not a session or a personal API token (x-min-role `anonymous`: the token is checked here). */
const firewallToken = [{ bearer: [] }];
const tokenHeaders = z.object({
  authorization: z.string().optional().meta({ description: 'Bearer <firewall token>' }),
});

const connectorRouter = createRouter();
// No token, no reading of bodies or queries: 401 comes before any 400.
connectorRouter.use('*', async (c, next) => {
  bearer(c.req.header('authorization'));
  await next();
});
// Audit records come in batches as large as ingest's (the app's 1 MB limit skips this path).
connectorRouter.use(
  '/events',
  bodyLimit({
    maxSize: ingestLimits.bytes,
    onError: () => {
      throw tooLarge();
    },
  }),
);

/** `/api/connector/*`: what a firewall's connector calls with its token. */
export const connectorRoutes = connectorRouter
  .openapi(
    route('anonymous', {
      method: 'get',
      path: '/config',
      summary:
        'The newest version’s files with `ETag` (its hash). `If-None-Match` with it answers 304; with `wait` (seconds, at most 60) as well the request is held until a newer version is saved, and 304 only when the wait ends without one',
      security: firewallToken,
      request: {
        query: ConnectorConfigQuery,
        headers: tokenHeaders.extend({ 'if-none-match': z.string().max(1000).optional() }),
      },
      responses: {
        200: json(ConnectorConfig, 'The newest version’s files'),
        304: { description: 'The caller has the newest version' },
      },
    }),
    async (c) => {
      const answer = await connectorConfig(connectorCall(c), {
        wait: c.req.valid('query').wait,
        ifNoneMatch: c.req.valid('header')['if-none-match'],
      });
      c.header('ETag', answer.etag);
      return answer.status === 304 ? c.body(null, 304) : c.json(answer.config, 200);
    },
  )
  .openapi(
    route('anonymous', {
      method: 'post',
      path: '/status',
      summary:
        'Report a version applied (it now serves) or failed (with the `nginx -t` message; the last good one keeps serving)',
      security: firewallToken,
      request: {
        headers: tokenHeaders,
        body: { required: true, content: { 'application/json': { schema: ConnectorStatusBody } } },
      },
      responses: { 200: json(ConnectorStatus, 'The firewall’s connector state') },
    }),
    async (c) => c.json(await reportStatus(connectorCall(c), c.req.valid('json')), 200),
  )
  .openapi(
    route('anonymous', {
      method: 'post',
      path: '/events',
      summary:
        'Ship ModSecurity v3 JSON audit records (NDJSON) as `POST /api/ingest/{token}` takes them (per-line errors, 10 MB and 10 000 records, monthly quota, `Idempotency-Key`); each event carries the firewall’s id and is stored under the firewall’s log source',
      security: firewallToken,
      request: {
        headers: tokenHeaders.extend({ 'idempotency-key': z.string().min(1).max(200).optional() }),
        body: {
          required: true,
          description: 'One ModSecurity v3 JSON audit record per line.',
          content: { 'application/x-ndjson': { schema: z.string() } },
        },
      },
      responses: {
        200: json(IngestAnswer, 'Accepted count and the refused lines with their reasons'),
        429: json(IngestRefusal, 'Monthly quota used up: `error`, plus what was accepted and `refused`'),
      },
    }),
    async (c) => {
      const stored = await receiveConnectorEvents(
        connectorCall(c),
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
