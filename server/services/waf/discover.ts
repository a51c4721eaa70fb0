/** WAF discover: the space's WAF events of a range grouped by IP, rule, path or country, each with a sparkline. */
import type { z } from 'zod';
import type { DiscoverAnswer, DiscoverQuery } from '../../../contract/waf.ts';
import type { SpaceCaller } from '../../caller.ts';
import { rowsOf } from '../../db/database.ts';
import { fieldError } from '../../errors.ts';
import { whereOf } from '../events/filters.ts';
import { histogramInterval } from '../events/search.ts';
import { type BucketLayout, type DiscoverRow, discoverStatement } from './discover-sql.ts';

/** About this many sparkline buckets over any range (a round width, so between 24 and 48 for the usual ranges). */
const SPARK_BUCKETS = 48;

/** The sparklines' buckets over a range: a round width, the first starting at a multiple of it at or before `from`. */
function layoutOf(from: Date, to: Date): BucketLayout {
  const seconds = histogramInterval((to.getTime() - from.getTime()) / 1000, SPARK_BUCKETS);
  const origin = Math.floor(from.getTime() / 1000 / seconds) * seconds * 1000;
  return { origin, seconds, count: Math.max(1, Math.ceil((to.getTime() - origin) / 1000 / seconds)) };
}

/** A group's sparkline: its counts per bucket, zero where it had none. */
function sparkline(row: DiscoverRow, count: number): number[] {
  const out = new Array<number>(count).fill(0);
  (row.spark_b ?? []).forEach((bucket, index) => {
    out[Number(bucket)] = Number(row.spark_n?.[index] ?? 0);
  });
  return out;
}

/**
 * The groups of the space's matching events over the range (default the last 24 hours), largest first by the chosen
 * order, with their counts, distinct IPs, first and last seen, top rule and sparkline, all from one statement.
 */
export async function wafDiscover(sc: SpaceCaller, q: z.infer<typeof DiscoverQuery>): Promise<DiscoverAnswer> {
  const to = q.to ? new Date(q.to) : sc.deps.now();
  const from = q.from ? new Date(q.from) : new Date(to.getTime() - 86_400_000);
  if (from >= to) throw fieldError('from', 'The start of the range must be before its end.');
  const layout = layoutOf(from, to);
  const where = whereOf(sc.space.id, { q: q.q, from: from.toISOString(), to: to.toISOString() });
  const statement = discoverStatement({
    where,
    scope: q.scope,
    groupBy: q.groupBy,
    sort: q.sort,
    limit: q.limit,
    offset: q.offset,
    layout,
  });
  const rows = await sc.deps.searches.run('facets', sc.space.id, async (db) =>
    rowsOf<DiscoverRow>(await db.execute(statement)),
  );
  const first = rows[0];
  return {
    groupBy: q.groupBy,
    from: from.toISOString(),
    to: to.toISOString(),
    bucketSeconds: layout.seconds,
    buckets: layout.count,
    total: Number(first?.total ?? 0),
    groups: Number(first?.groups ?? 0),
    items: rows.flatMap((row) =>
      row.k === null
        ? []
        : [
            {
              key: row.k,
              count: Number(row.n),
              blocked: Number(row.blocked),
              distinctIps: Number(row.ips),
              firstSeen: new Date(Number(row.first_ms)).toISOString(),
              lastSeen: new Date(Number(row.last_ms)).toISOString(),
              topRule: row.top_rule === null ? null : { id: Number(row.top_rule), count: Number(row.top_rule_n ?? 0) },
              sparkline: sparkline(row, layout.count),
            },
          ],
    ),
  };
}
