import { and, desc, eq, gte, isNull, lte, or, type SQL } from 'drizzle-orm';
import { stream } from 'hono/streaming';
import type { z } from 'zod';
import { ActivityExportQuery, ActivityPage, ActivityQuery } from '../../contract/activity.ts';
import { SpaceParams } from '../../contract/common.ts';
import type { Executor } from '../db/database.ts';
import { type ActivityRow, activity } from '../db/schema/activity.ts';
import { ApiError } from '../errors.ts';
import { createRouter, json, route } from '../router.ts';
import { csvRow } from '../services/shared/csv.ts';
import { encodeTimeCursor, olderThan } from '../services/shared/time-cursor.ts';

type Filters = Pick<z.infer<typeof ActivityQuery>, 'actor' | 'action' | 'objectType' | 'from' | 'to'>;

function view(row: ActivityRow) {
  return {
    id: row.id,
    spaceId: row.spaceId,
    actorId: row.actorId,
    actorName: row.actorName,
    action: row.action,
    objectType: row.objectType,
    objectId: row.objectId,
    createdAt: row.createdAt.toISOString(),
    ip: row.ip,
    userAgent: row.userAgent,
    change: row.change ?? null,
  };
}

function conditions(scope: SQL, f: Filters): SQL[] {
  const where: SQL[] = [scope];
  if (f.actor) where.push(eq(activity.actorId, f.actor));
  if (f.action) where.push(eq(activity.action, f.action));
  if (f.objectType) where.push(eq(activity.objectType, f.objectType));
  if (f.from) where.push(gte(activity.createdAt, new Date(f.from)));
  if (f.to) where.push(lte(activity.createdAt, new Date(f.to)));
  return where;
}

/** One page, newest first, keyset-paginated on (createdAt, id). */
async function pageOf(db: Executor, scope: SQL, f: Filters, limit: number, cursor?: string) {
  const where = conditions(scope, f);
  if (cursor) {
    const older = olderThan(activity.createdAt, activity.id, cursor);
    if (older) where.push(older);
  }
  const rows = await db
    .select()
    .from(activity)
    .where(and(...where))
    .orderBy(desc(activity.createdAt), desc(activity.id))
    .limit(limit + 1);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeTimeCursor(last.createdAt, last.id) : null };
}

const csvColumns = [
  'createdAt',
  'actorId',
  'actorName',
  'action',
  'objectType',
  'objectId',
  'ip',
  'userAgent',
  'change',
] as const;

/** The audit log of a space: filtered, cursor-paginated list and NDJSON or CSV export. */
export const activityRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/activity',
      summary: 'Audit records, newest first; filters actor, action, objectType, from, to',
      request: { params: SpaceParams, query: ActivityQuery },
      responses: { 200: json(ActivityPage, 'One page') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const result = await pageOf(c.var.deps.db, eq(activity.spaceId, c.var.space.id), q, q.limit, q.cursor);
      return c.json({ items: result.items.map(view), nextCursor: result.nextCursor }, 200);
    },
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/activity/export',
      summary: 'Export the (filtered) audit log as NDJSON or CSV',
      request: { params: SpaceParams, query: ActivityExportQuery },
      responses: {
        200: {
          description: 'The records, newest first',
          content: {
            'application/x-ndjson': { schema: { type: 'string' } },
            'text/csv': { schema: { type: 'string' } },
          },
        },
      },
    }),
    (c) => {
      const q = c.req.valid('query');
      const { db } = c.var.deps;
      const spaceId = c.var.space.id;
      const csv = q.format === 'csv';
      c.header('Content-Type', csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
      c.header('Content-Disposition', `attachment; filename="activity-${spaceId}.${csv ? 'csv' : 'ndjson'}"`);
      return stream(c, async (out) => {
        if (csv) await out.write(`${csvColumns.join(',')}\n`);
        let cursor: string | undefined;
        do {
          const result = await pageOf(db, eq(activity.spaceId, spaceId), q, 1000, cursor);
          const lines = result.items.map((row) => {
            const v = view(row);
            return csv ? csvRow(csvColumns.map((k) => v[k])) : JSON.stringify(v);
          });
          if (lines.length) await out.write(`${lines.join('\n')}\n`);
          cursor = result.nextCursor ?? undefined;
        } while (cursor);
      });
    },
  );

/** The caller's own account events (sign-ins, failed sign-ins, profile, tokens), for the profile page. */
export const accountActivityRoutes = createRouter().openapi(
  route('user', {
    method: 'get',
    path: '/activity',
    summary: "The signed-in user's account events outside spaces, newest first",
    request: { query: ActivityQuery.omit({ actor: true }) },
    responses: { 200: json(ActivityPage, 'One page') },
  }),
  async (c) => {
    const q = c.req.valid('query');
    const user = c.var.user;
    if (!user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
    const mine =
      and(isNull(activity.spaceId), or(eq(activity.actorId, user.id), eq(activity.objectId, user.id))) ??
      isNull(activity.spaceId);
    const result = await pageOf(c.var.deps.db, mine, q, q.limit, q.cursor);
    return c.json({ items: result.items.map(view), nextCursor: result.nextCursor }, 200);
  },
);
