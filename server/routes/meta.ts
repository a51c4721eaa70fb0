import { z } from 'zod';
import { DemoSeedBody, DemoSeeded, Health, OutboxList } from '../../contract/meta.ts';
import { ping } from '../db/database.ts';
import { type Send, seedDemoSpace } from '../demo/seed.ts';
import { userOf } from '../middleware/access.ts';
import { body, createRouter, json, route } from '../router.ts';
import { listOutbox } from '../services/mail/outbox.ts';

/** Liveness with a database round trip. */
export const healthRoutes = createRouter().openapi(
  route('anonymous', {
    method: 'get',
    path: '/health',
    summary: 'Liveness: the API answers and the database too',
    responses: { 200: json(Health, 'Healthy') },
  }),
  async (c) => {
    await ping(c.var.deps.db);
    return c.json({ status: 'ok' as const, database: 'ok' as const }, 200);
  },
);

/** The development outbox: mounted only outside production. */
export const devRoutes = createRouter().openapi(
  route('anonymous', {
    method: 'get',
    path: '/outbox',
    summary: 'Mail kept in the development outbox, newest first (not in production)',
    request: {
      query: z.object({
        to: z.string().max(254).optional(),
        limit: z.coerce.number().int().min(1).max(200).default(50),
      }),
    },
    responses: { 200: json(OutboxList, 'Messages') },
  }),
  async (c) => c.json(await listOutbox(c.var.deps.db, c.req.valid('query')), 200),
);

/**
 * The demo's data for the signed-in user (development only): their own space "Demo shop" with the ModSecurity source,
 * the firewall and a week of traffic, seeded as `npm run demo` seeds it, through the API itself (`send`).
 */
export function devDemoRoutes(send: Send) {
  return createRouter().openapi(
    route('user', {
      method: 'post',
      path: '/demo',
      summary: 'Seed the demo space, source, firewall and traffic into the caller’s account (not in production)',
      request: { body: body(DemoSeedBody) },
      responses: { 201: json(DemoSeeded, 'The seeded space') },
    }),
    async (c) => {
      const { events, seed } = c.req.valid('json');
      const user = userOf(c);
      const { deps } = c.var;
      const seeded = await seedDemoSpace({ db: deps.db, send, now: deps.now(), events, seed, userId: user.id });
      return c.json({ spaceId: seeded.spaceId, firewallId: seeded.firewallId, accepted: seeded.accepted }, 201);
    },
  );
}
