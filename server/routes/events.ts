import { and, desc, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { SpaceParams } from '../../contract/common.ts';
import {
  type EventFilters,
  EventPage,
  EventPageQuery,
  EventParams,
  FacetQuery,
  Facets,
  Histogram,
  HistogramQuery,
} from '../../contract/event-search.ts';
import { Event } from '../../contract/events.ts';
import { parseQuery } from '../../contract/query/parse.ts';
import { type EventRow, events } from '../db/schema/events.ts';
import { fieldError, notFound } from '../errors.ts';
import { createRouter, json, route } from '../router.ts';
import { compileQuery } from '../services/query/compile.ts';
import { encodeTimeCursor, olderThan } from '../services/time-cursor.ts';

export type Filters = z.infer<typeof EventFilters>;

/** The stored event as the API shows it. */
export function view(row: EventRow): z.infer<typeof Event> {
  return {
    id: row.id,
    sourceId: row.sourceId,
    time: row.time.toISOString(),
    receivedAt: row.receivedAt.toISOString(),
    dedupKey: row.dedupKey,
    ip: row.ip,
    country: row.country,
    method: row.method,
    host: row.host,
    path: row.path,
    status: row.status,
    action: row.action,
    severity: row.severity,
    ruleIds: row.ruleIds,
    tags: row.tags,
    message: row.message,
    userAgent: row.userAgent,
    firewallId: row.firewallId,
    raw: row.raw,
  };
}

/** A query in the event query language, parsed; one that does not parse is a 400 on `field` naming its position. */
export function parsedQuery(q: string, field: string) {
  const parsed = parseQuery(q);
  if (!parsed.ok) {
    throw fieldError(field, `${parsed.error.message} (at character ${parsed.error.position + 1})`, 'query_invalid');
  }
  return parsed.ast;
}

/** The space, the time range and the compiled query; a query that does not parse is a 400 naming its position. */
export function whereOf(spaceId: string, f: Filters): SQL[] {
  const where: SQL[] = [eq(events.spaceId, spaceId), compileQuery(parsedQuery(f.q, 'q'), events)];
  if (f.from) where.push(gte(events.time, new Date(f.from)));
  if (f.to) where.push(lte(events.time, new Date(f.to)));
  return where;
}

/** The event log of a space: a page of matching events, a histogram, facet counts, and one event. */
export const eventRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/events',
      summary: 'Events matching a query and time range, newest first, cursor-paginated',
      request: { params: SpaceParams, query: EventPageQuery },
      responses: { 200: json(EventPage, 'One page') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const where = whereOf(c.var.space.id, q);
      if (q.cursor) {
        const older = olderThan(events.time, events.id, q.cursor);
        if (older) where.push(older);
      }
      const rows = await c.var.deps.db
        .select()
        .from(events)
        .where(and(...where))
        .orderBy(desc(events.time), desc(events.id))
        .limit(q.limit + 1);
      const items = rows.slice(0, q.limit);
      const last = items.at(-1);
      return c.json(
        {
          items: items.map(view),
          nextCursor: rows.length > q.limit && last ? encodeTimeCursor(last.time, last.id) : null,
        },
        200,
      );
    },
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/events/histogram',
      summary: 'Matching and blocked events per time bucket (default: the last 24 hours)',
      request: { params: SpaceParams, query: HistogramQuery },
      responses: { 200: json(Histogram, 'Buckets, oldest first') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const to = q.to ? new Date(q.to) : new Date(c.var.deps.now().getTime());
      const from = q.from ? new Date(q.from) : new Date(to.getTime() - 86_400_000);
      if (from >= to) throw fieldError('from', 'The start of the range must be before its end.');
      const interval = Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 1000 / q.buckets));
      const where = whereOf(c.var.space.id, { ...q, from: from.toISOString(), to: to.toISOString() });
      // date_part answers double precision; extract answers numeric, whose arithmetic is far slower per row.
      const bucket = sql<number>`floor((date_part('epoch', ${events.time}) - ${from.getTime() / 1000}::double precision) / ${interval}::double precision)::int`;
      const rows = await c.var.deps.db
        .select({
          bucket,
          total: sql<number>`count(*)::int`,
          blocked: sql<number>`count(*) filter (where ${events.action} = 'blocked')::int`,
        })
        .from(events)
        .where(and(...where))
        // By position: the bucket expression carries parameters, so repeating it would not match.
        .groupBy(sql`1`);
      const counts = new Map(rows.map((row) => [Number(row.bucket), row]));
      const size = Math.ceil((to.getTime() - from.getTime()) / 1000 / interval);
      const buckets = Array.from({ length: size }, (_, index) => {
        const row = counts.get(index);
        return {
          time: new Date(from.getTime() + index * interval * 1000).toISOString(),
          total: row ? Number(row.total) : 0,
          blocked: row ? Number(row.blocked) : 0,
        };
      });
      return c.json({ from: from.toISOString(), to: to.toISOString(), intervalSeconds: interval, buckets }, 200);
    },
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/events/facets',
      summary: 'The most frequent actions, severities, countries, rules, hosts, tags and client IPs of matching events',
      request: { params: SpaceParams, query: FacetQuery },
      responses: { 200: json(Facets, 'Facet counts') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const { db } = c.var.deps;
      const where = and(...whereOf(c.var.space.id, q));
      // The most frequent values of an expression over some rows; array columns are unnested first,
      // so they count once per element. Grouped and ordered by position: expressions may carry parameters.
      const top = async (rows: SQL, value: SQL) => {
        const found = await db
          .select({ value: sql<string>`(${value})::text`, count: sql<number>`count(*)::int` })
          .from(rows)
          .where(and(where, sql`${value} is not null`))
          .groupBy(sql`1`)
          .orderBy(desc(sql`2`), sql`1`)
          .limit(q.size);
        return found.map((row) => ({ value: String(row.value), count: Number(row.count) }));
      };
      const unnested = (column: SQL) => top(sql`${events}, unnest(${column}) as v`, sql`v`);
      const [totals, action, severity, country, rule, host, tag, ip] = await Promise.all([
        db.select({ n: sql<number>`count(*)::int` }).from(events).where(where),
        top(sql`${events}`, sql`${events.action}`),
        top(sql`${events}`, sql`${events.severity}`),
        top(sql`${events}`, sql`${events.country}`),
        unnested(sql`${events.ruleIds}`),
        top(sql`${events}`, sql`${events.host}`),
        unnested(sql`${events.tags}`),
        top(sql`${events}`, sql`${events.ip}`),
      ]);
      return c.json({ total: Number(totals[0]?.n ?? 0), action, severity, country, rule, host, tag, ip }, 200);
    },
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/events/{eventId}',
      summary: 'One event with its raw record',
      request: { params: EventParams },
      responses: { 200: json(Event, 'The event') },
    }),
    async (c) => {
      const { eventId } = c.req.valid('param');
      const [row] = await c.var.deps.db
        .select()
        .from(events)
        .where(and(eq(events.spaceId, c.var.space.id), eq(events.id, eventId)));
      if (!row) throw notFound('event');
      return c.json(view(row), 200);
    },
  );
