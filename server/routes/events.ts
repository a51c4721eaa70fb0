import { and, desc, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { SpaceParams } from '../../contract/common.ts';
import { planTerms } from '../../contract/constants/plans.ts';
import {
  type EventFilters,
  EventPage,
  EventPageQuery,
  EventParams,
  EventUsage,
  FacetQuery,
  Facets,
  Histogram,
  HistogramQuery,
} from '../../contract/event-search.ts';
import { Event } from '../../contract/events.ts';
import { parseQuery } from '../../contract/query/parse.ts';
import { type EventRow, events } from '../db/schema/events.ts';
import { eventUsage } from '../db/schema/usage.ts';
import { fieldError, notFound } from '../errors.ts';
import { createRouter, json, route } from '../router.ts';
import { compileQuery } from '../services/events/compile-query.ts';
import { monthOf, startOfNextMonth } from '../services/ingest/store.ts';
import { encodeTimeCursor, olderThan } from '../services/shared/time-cursor.ts';

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
      // The matching rows' small columns are read into a materialised CTE, then each facet is a top-N over it
      // (array columns unnested, counting once per element), instead of eight queries each reading the rows.
      // Grouped and ordered by position; names are fixed constants, values are bound parameters.
      const scalar = (key: string, column: string) =>
        sql`(select ${sql.raw(`'${key}'`)} as k, ${sql.raw(column)}::text as v, count(*)::int as n from m where ${sql.raw(column)} is not null group by 2 order by 3 desc, 2 limit ${q.size})`;
      const array = (key: string, column: string) =>
        sql`(select ${sql.raw(`'${key}'`)} as k, x::text as v, count(*)::int as n from m, unnest(m.${sql.raw(column)}) as x group by 2 order by 3 desc, 2 limit ${q.size})`;
      // Two passes, run side by side where the database has a pool (PostgreSQL): each reads the rows once.
      const pass = (parts: SQL[]) =>
        db.execute(sql`
          with m as materialized (
            select action, severity, country, host, ip, rule_ids, tags from ${events} where ${where}
          )
          ${sql.join(parts, sql` union all `)}`);
      const results = await Promise.all([
        pass([
          sql`(select 'total' as k, null::text as v, count(*)::int as n from m)`,
          scalar('action', 'action'),
          scalar('severity', 'severity'),
          scalar('country', 'country'),
          scalar('host', 'host'),
        ]),
        pass([array('rule', 'rule_ids'), array('tag', 'tags'), scalar('ip', 'ip')]),
      ]);
      // Both drivers (node-postgres, PGlite) answer `{ rows }`; union all keeps each branch's order.
      const rows = results.flatMap(
        (result) => (result as unknown as { rows: { k: string; v: string | null; n: number | string }[] }).rows,
      );
      type FacetValue = { value: string; count: number };
      const facets: Record<'action' | 'severity' | 'country' | 'rule' | 'host' | 'tag' | 'ip', FacetValue[]> = {
        action: [],
        severity: [],
        country: [],
        rule: [],
        host: [],
        tag: [],
        ip: [],
      };
      let total = 0;
      for (const row of rows) {
        if (row.k === 'total') total = Number(row.n);
        else facets[row.k as keyof typeof facets].push({ value: String(row.v), count: Number(row.n) });
      }
      return c.json({ total, ...facets }, 200);
    },
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/events/usage',
      summary:
        "This month's ingest (UTC) against the plan's monthly quota: events stored and events refused past the quota",
      request: { params: SpaceParams },
      responses: { 200: json(EventUsage, 'Usage this month') },
    }),
    async (c) => {
      const { db, now } = c.var.deps;
      const at = now();
      const month = monthOf(at);
      const space = c.var.space;
      const [row] = await db
        .select()
        .from(eventUsage)
        .where(and(eq(eventUsage.spaceId, space.id), eq(eventUsage.month, month)));
      return c.json(
        {
          month,
          plan: space.plan,
          quota: planTerms[space.plan].eventsPerMonth,
          accepted: row?.accepted ?? 0,
          refused: row?.refused ?? 0,
          resetsAt: startOfNextMonth(at).toISOString(),
        },
        200,
      );
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
