import { z } from 'zod';
import { Health, OutboxList } from '../../contract/meta.ts';
import { ping } from '../db/database.ts';
import { createRouter, json, route } from '../router.ts';
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
