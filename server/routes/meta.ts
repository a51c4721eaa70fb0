import { desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { Health, OutboxList } from '../../contract/meta.ts';
import { outbox } from '../db/schema/outbox.ts';
import { createRouter, json, route } from '../router.ts';

/** Liveness with a database round trip. */
export const healthRoutes = createRouter().openapi(
  route('anonymous', {
    method: 'get',
    path: '/health',
    summary: 'Liveness: the API answers and the database too',
    responses: { 200: json(Health, 'Healthy') },
  }),
  async (c) => {
    await c.var.deps.db.execute(sql`select 1`);
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
  async (c) => {
    const { to, limit } = c.req.valid('query');
    const rows = await c.var.deps.db
      .select()
      .from(outbox)
      .where(to ? eq(outbox.to, to.toLowerCase()) : undefined)
      .orderBy(desc(outbox.createdAt))
      .limit(limit);
    return c.json({ items: rows.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })) }, 200);
  },
);
