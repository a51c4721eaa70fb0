/**
 * One dashboard widget's query over the events of a space (docs/dashboard-queries.md): a metric (count, distinct
 * values, sum or average of a numeric field) of the events matching a filter in a time range, grouped by time
 * bucket, by a field's values, or not at all. Counts the rollups can answer exactly are read from them (plus the
 * events at the range's ragged edges); everything else is one statement over `events`. Every statement runs in the
 * event log's search lane, with its time budgets and queue.
 */
import { type SQL, sql } from 'drizzle-orm';
import {
  type DashboardField,
  dashboardFields,
  dashboardLimits,
  type TimeInterval,
  timeIntervalSeconds,
} from '../../../contract/constants/dashboards.ts';
import { resolveTimePoint } from '../../../contract/dashboard-rules.ts';
import type { SeriesPoint, WidgetQuery, WidgetResult } from '../../../contract/dashboards.ts';
import type { SpaceCaller } from '../../caller.ts';
import { rowsOf } from '../../db/database.ts';
import { fieldError } from '../../errors.ts';
import { parsedQuery } from '../events/filters.ts';
import { histogramInterval } from '../events/search.ts';
import { histogramTier, rollupAnswerable, rollupFacets, rollupHistogram } from '../events/tiers.ts';
import {
  bucketIndexSql,
  type Grouping,
  rawQuerySql,
  rolledFacetOf,
  rollupDistinctSql,
  rollupFieldSql,
} from './query-sql.ts';

/** The body of `POST .../query` after validation. */
export type WidgetQueryInput = { query: WidgetQuery; from: string; to: string };

/** Options for tests: `rollups: false` forces the statement over `events`. */
export type WidgetQueryOptions = { rollups?: boolean };

/** The name of a widget's one series: what its metric measures. */
export function seriesName(query: Pick<WidgetQuery, 'metric' | 'field'>): string {
  switch (query.metric) {
    case 'count':
      return 'Events';
    case 'distinct':
      return `Distinct ${query.field}`;
    case 'sum':
      return `Sum of ${query.field}`;
    case 'avg':
      return `Average ${query.field}`;
  }
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A span of time in words: `30 days`, `6 hours`, `45 minutes`. */
function spanWords(ms: number): string {
  const round = (n: number) => Number(n.toFixed(1));
  if (ms >= 2 * DAY) return `${round(ms / DAY)} days`;
  if (ms >= 2 * HOUR) return `${round(ms / HOUR)} hours`;
  return `${round(ms / MINUTE)} minutes`;
}

/** A whole number with a space between thousands: 43 200. */
const grouped = (n: number) => n.toLocaleString('en').replace(/,/g, ' ');

/** The buckets of a time group: width, first bucket's start (a multiple of the width since the epoch), how many. */
export function timeBuckets(
  interval: TimeInterval | undefined,
  from: number,
  to: number,
): { intervalSeconds: number; origin: number; size: number } {
  const seconds =
    interval === undefined || interval === 'auto'
      ? histogramInterval((to - from) / 1000, dashboardLimits.autoBuckets)
      : timeIntervalSeconds[interval];
  const origin = Math.floor(from / 1000 / seconds) * seconds * 1000;
  const size = Math.floor((to - origin) / 1000 / seconds) + 1;
  if (size > dashboardLimits.maxBuckets)
    throw fieldError(
      'query.groupBy.interval',
      `${interval} buckets over ${spanWords(to - from)} make ${grouped(size)} buckets; at most ${grouped(dashboardLimits.maxBuckets)}. Choose a wider interval or auto.`,
    );
  return { intervalSeconds: seconds, origin, size };
}

type Row = { x: number | string | null; v: number | string | null };

/** One widget's query over `from`..`to` (time points resolved at the caller's now). */
export async function widgetQuery(
  sc: SpaceCaller,
  input: WidgetQueryInput,
  options: WidgetQueryOptions = {},
): Promise<WidgetResult> {
  const { query } = input;
  const now = sc.deps.now().getTime();
  const from = resolveTimePoint(input.from, now);
  const to = resolveTimePoint(input.to, now);
  if (!(from < to)) throw fieldError('from', 'The start of the range must be before its end.');
  const ast = parsedQuery(query.filter, 'query.filter');
  const useRollups = options.rollups !== false && query.metric === 'count';
  const spaceId = sc.space.id;
  const range = { from, to };
  const name = seriesName(query);
  const result = (data: SeriesPoint[], intervalSeconds: number | null, fromRollups: boolean): WidgetResult => ({
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    intervalSeconds,
    series: [{ name, data }],
    fromRollups,
  });
  const value = (v: Row['v']): number | null => {
    if (v === null || v === undefined) return query.metric === 'avg' ? null : 0;
    return Number(v);
  };

  const { groupBy } = query;
  if (groupBy.kind === 'time') {
    const buckets = timeBuckets(groupBy.interval, from, to);
    const tier = useRollups ? histogramTier(buckets.intervalSeconds) : null;
    const rollup = tier && rollupHistogram(spaceId, ast, range, { tier, ...buckets });
    const grouping: Grouping = { kind: 'time', index: bucketIndexSql(buckets.origin, buckets.intervalSeconds) };
    const statement: SQL = rollup
      ? wrapHistogram(rollup)
      : rawQuerySql(spaceId, query.filter, range, query.metric, query.field, grouping);
    const rows = await sc.deps.searches.run('histogram', sc.space.id, async (db) =>
      rowsOf<Row>(await db.execute(statement)),
    );
    const byBucket = new Map(rows.map((row) => [Number(row.x), row.v]));
    const data: SeriesPoint[] = Array.from({ length: buckets.size }, (_, index) => [
      buckets.origin + index * buckets.intervalSeconds * 1000,
      value(byBucket.get(index) ?? null),
    ]);
    return result(data, buckets.intervalSeconds, Boolean(rollup));
  }

  if (groupBy.kind === 'none') {
    // Any bucketing counts the same total; days are the coarsest tier, so the fewest rollup rows are read.
    const rollup =
      useRollups && rollupHistogram(spaceId, ast, range, { tier: 'day', origin: 0, intervalSeconds: 86_400 });
    // A distinct count of a rolled field (client addresses, countries, rules…) under a key-only filter: the distinct
    // values of its facet rows, far fewer than the events.
    const distinctFacet =
      options.rollups !== false && query.metric === 'distinct' && query.field && rollupAnswerable(ast)
        ? rolledFacetOf(query.field)
        : null;
    let statement: SQL;
    if (rollup) statement = sql`select null as x, coalesce(sum(total), 0)::bigint as v from (${rollup}) as h`;
    else if (distinctFacet && query.field)
      statement = rollupDistinctSql(spaceId, ast, range, query.field, distinctFacet);
    else statement = rawQuerySql(spaceId, query.filter, range, query.metric, query.field, { kind: 'none' });
    const rows = await sc.deps.searches.run('histogram', sc.space.id, async (db) =>
      rowsOf<Row>(await db.execute(statement)),
    );
    return result([[null, value(rows[0]?.v ?? null)]], null, Boolean(rollup) || distinctFacet !== null);
  }

  const field: DashboardField = groupBy.field;
  const limit = groupBy.limit ?? dashboardLimits.fieldLimitDefault;
  const facet = useRollups && rollupAnswerable(ast) ? rolledFacetOf(field) : null;
  const statement = facet
    ? rollupFieldSql(spaceId, ast, range, field, facet, limit)
    : rawQuerySql(spaceId, query.filter, range, query.metric, query.field, { kind: 'field', field, limit });
  const rows = await sc.deps.searches.run('facets', sc.space.id, async (db): Promise<Row[]> => {
    // The client addresses have about as many values as events: their top values come from the heavy rows where
    // these settle them, as the event log's facets do (`rollupFacets`).
    if (facet === 'ip') {
      const found = await rollupFacets(db, spaceId, ast, range, limit, { ipOnly: true });
      return found.rows.filter((row) => row.k === 'ip').map((row) => ({ x: row.v, v: row.n }));
    }
    return rowsOf<Row>(await db.execute(statement));
  });
  const numeric = dashboardFields[field].numeric || field === 'ruleIds';
  const data: SeriesPoint[] = rows.map((row) => [numeric ? Number(row.x) : String(row.x), value(row.v)]);
  return result(data, null, facet !== null);
}

/** A rollup histogram's rows as (bucket, count). */
function wrapHistogram(statement: SQL): SQL {
  return sql`select bucket as x, total as v from (${statement}) as h`;
}
