/** The event log's reads: a page of matching events, their histogram, their facet counts, and one event. */
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  EventPage,
  EventPageQuery,
  FacetQuery,
  Facets,
  Histogram,
  HistogramQuery,
} from '../../../contract/event-search.ts';
import type { Event } from '../../../contract/events.ts';
import type { SpaceCaller } from '../../caller.ts';
import { type Executor, rowsOf } from '../../db/database.ts';
import { eventRaw, events } from '../../db/schema/events.ts';
import { fieldError, notFound } from '../../errors.ts';
import { encodeTimeCursor, olderThan } from '../shared/time-cursor.ts';
import { eventSummaryView, eventView, eventWithRaw, parsedQuery, rawOfEvent, whereOf } from './filters.ts';
import { type FacetRow, histogramTier, rollupAnswerable, rollupFacets, rollupHistogram } from './tiers.ts';

/** The query of a page of events: matching, newest first, one more than the limit to tell whether more follow. */
export function eventPageSelect(db: Executor, spaceId: string, q: z.infer<typeof EventPageQuery>) {
  const where = whereOf(spaceId, q);
  if (q.cursor) {
    const older = olderThan(events.time, events.id, q.cursor);
    if (older) where.push(older);
  }
  return db
    .select()
    .from(events)
    .where(and(...where))
    .orderBy(desc(events.time), desc(events.id))
    .limit(q.limit + 1);
}

/** Events matching a query and time range, newest first, cursor-paginated. */
export async function eventPage(sc: SpaceCaller, q: z.infer<typeof EventPageQuery>): Promise<EventPage> {
  const rows = await sc.deps.searches.run('page', sc.space.id, (db) => eventPageSelect(db, sc.space.id, q));
  const items = rows.slice(0, q.limit);
  const last = items.at(-1);
  return {
    items: items.map(eventSummaryView),
    nextCursor: rows.length > q.limit && last ? encodeTimeCursor(last.time, last.id) : null,
  };
}

/**
 * Bucket widths a histogram may have, in seconds: round ones, as a chart's axis wants them, and whole minutes, hours
 * or days from a minute up, so the rollups can count them.
 */
export const histogramIntervals = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 10_800, 21_600, 43_200, 86_400, 172_800, 604_800,
  1_209_600, 2_592_000,
] as const;

/** The narrowest round interval that covers `seconds` in at most `buckets` buckets (the widest for longer ranges). */
export function histogramInterval(seconds: number, buckets: number): number {
  const wanted = seconds / buckets;
  return histogramIntervals.find((width) => width >= wanted) ?? Math.ceil(wanted / 86_400) * 86_400;
}

/**
 * Matching events per time bucket, with the blocked and the logged ones (default: the last 24 hours). Buckets are a round interval wide
 * (`histogramInterval`) and start at multiples of it since the epoch, so the first may start before `from`; they
 * count only events in the range. Queries naming only the action and the firewall, and (for buckets of whole hours)
 * those adding one tag, rule, severity, country or host, are counted from the rollups.
 */
export async function eventHistogram(sc: SpaceCaller, q: z.infer<typeof HistogramQuery>): Promise<Histogram> {
  const to = q.to ? new Date(q.to) : new Date(sc.deps.now().getTime());
  const from = q.from ? new Date(q.from) : new Date(to.getTime() - 86_400_000);
  if (from >= to) throw fieldError('from', 'The start of the range must be before its end.');
  const interval = histogramInterval((to.getTime() - from.getTime()) / 1000, q.buckets);
  const origin = Math.floor(from.getTime() / 1000 / interval) * interval * 1000;
  const ast = parsedQuery(q.q, 'q');
  const where = whereOf(sc.space.id, { ...q, from: from.toISOString(), to: to.toISOString() });
  const tier = histogramTier(interval);
  const rows = await sc.deps.searches.run('histogram', sc.space.id, (db) => {
    const range = { from: from.getTime(), to: to.getTime() };
    const statement = tier && rollupHistogram(sc.space.id, ast, range, { tier, origin, intervalSeconds: interval });
    if (statement) {
      return db
        .execute(statement)
        .then((result) => rowsOf<{ bucket: number; total: number; blocked: number; logged: number }>(result));
    }
    // date_part answers double precision; extract answers numeric, whose arithmetic is far slower per row.
    const bucket = sql<number>`floor((date_part('epoch', ${events.time}) - ${origin / 1000}::double precision) / ${interval}::double precision)::int`;
    return (
      db
        .select({
          bucket,
          total: sql<number>`count(*)::int`,
          blocked: sql<number>`count(*) filter (where ${events.action} = 'blocked')::int`,
          logged: sql<number>`count(*) filter (where ${events.action} = 'logged')::int`,
        })
        .from(events)
        .where(and(...where))
        // By position: the bucket expression carries parameters, so repeating it would not match.
        .groupBy(sql`1`)
    );
  });
  const counts = new Map(rows.map((row) => [Number(row.bucket), row]));
  const size = Math.floor((to.getTime() - origin) / 1000 / interval) + 1;
  const buckets = Array.from({ length: size }, (_, index) => {
    const row = counts.get(index);
    return {
      time: new Date(origin + index * interval * 1000).toISOString(),
      total: row ? Number(row.total) : 0,
      blocked: row ? Number(row.blocked) : 0,
      logged: row ? Number(row.logged) : 0,
    };
  });
  return { from: from.toISOString(), to: to.toISOString(), intervalSeconds: interval, buckets };
}

type FacetName = Exclude<keyof Facets, 'total'>;

/**
 * The most frequent actions, severities, countries, rules, hosts, tags and client IPs of matching events. Queries
 * naming only the action and the firewall are counted from the rollups; others read the matching events.
 */
export async function eventFacets(sc: SpaceCaller, q: z.infer<typeof FacetQuery>): Promise<Facets> {
  const ast = parsedQuery(q.q, 'q');
  const rows = rollupAnswerable(ast)
    ? await sc.deps.searches.run('facets', sc.space.id, async (db) => {
        const range = { from: q.from ? Date.parse(q.from) : null, to: q.to ? Date.parse(q.to) : null };
        return (await rollupFacets(db, sc.space.id, ast, range, q.size)).rows;
      })
    : await rawFacets(sc, q);
  const facets: Facets = { total: 0, action: [], severity: [], country: [], rule: [], host: [], tag: [], ip: [] };
  for (const row of rows) {
    if (row.k === 'total') facets.total = Number(row.n);
    else if (row.k in facets) facets[row.k as FacetName].push({ value: String(row.v), count: Number(row.n) });
  }
  return facets;
}

/** Facets read from the matching events themselves. */
async function rawFacets(sc: SpaceCaller, q: z.infer<typeof FacetQuery>): Promise<FacetRow[]> {
  const statement = rawFacetsSql(sc.space.id, q);
  // Union all keeps each branch's order.
  return rowsOf<FacetRow>(await sc.deps.searches.run('facets', sc.space.id, (db: Executor) => db.execute(statement)));
}

/** The statement of `rawFacets`: the matching events counted once per facet, each facet a top-N of its counts. */
export function rawFacetsSql(spaceId: string, q: z.infer<typeof FacetQuery>): SQL {
  const where = and(...whereOf(spaceId, q));
  // One pass over the matching events with grouping sets: a count per action, severity, country, host and ip, and
  // per distinct rule set and tag set (events share a handful: a ModSecurity record carries nine CRS tags), which
  // are unnested once per set. `grouping(...)` tells the sets apart: a bit per column, set where it is not grouped,
  // the first column highest. Then each facet is a top-N over its own counts. Ordered by position; names are fixed
  // constants, values are bound parameters.
  const set = { all: 127, action: 63, severity: 95, country: 111, host: 119, ip: 123, tags: 125, rule_ids: 126 };
  const scalar = (key: FacetName, column: keyof typeof set) =>
    sql`(select ${sql.raw(`'${key}'`)} as k, ${sql.raw(column)}::text as v, n::int as n from g where set = ${sql.raw(String(set[column]))} and ${sql.raw(column)} is not null order by 3 desc, 2 limit ${q.size})`;
  const array = (key: FacetName, column: 'tags' | 'rule_ids') =>
    sql`(select ${sql.raw(`'${key}'`)} as k, x::text as v, sum(g.n)::int as n from g, unnest(g.${sql.raw(column)}) as x where set = ${sql.raw(String(set[column]))} and x is not null group by 2 order by 3 desc, 2 limit ${q.size})`;
  return sql`
      with g as materialized (
        select grouping(action, severity, country, host, ip, tags, rule_ids) as set,
          action, severity, country, host, ip, tags, rule_ids, count(*) as n
        from ${events} where ${where}
        group by grouping sets ((), (action), (severity), (country), (host), (ip), (tags), (rule_ids))
      )
      ${sql.join(
        [
          sql`(select 'total' as k, null::text as v, coalesce(sum(n), 0)::int as n from g where set = ${sql.raw(String(set.all))})`,
          scalar('action', 'action'),
          scalar('severity', 'severity'),
          scalar('country', 'country'),
          scalar('host', 'host'),
          array('rule', 'rule_ids'),
          array('tag', 'tags'),
          scalar('ip', 'ip'),
        ],
        sql` union all `,
      )}`;
}

/** One event of the space, with its raw record. */
export async function eventById(sc: SpaceCaller, eventId: string): Promise<z.infer<typeof Event>> {
  const [row] = await sc.deps.db
    .select(eventWithRaw)
    .from(events)
    .innerJoin(eventRaw, rawOfEvent)
    .where(and(eq(events.spaceId, sc.space.id), eq(events.id, eventId)));
  if (!row) throw notFound('event');
  return eventView(row);
}
