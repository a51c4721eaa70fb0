/**
 * Histograms and facets answered from the rollups (server/services/events/rollups.ts) where the query names only
 * the rollup key (the action and the firewall), and from the events themselves at the range's ragged edges. A time
 * range is cut into whole buckets of the coarsest tier that fits (days in the middle, then hours, for the minute
 * histograms minutes) and the partial buckets at its ends, which are read from `events` with the whole query, so
 * the answer is exactly a plain scan's.
 */
import { type AnyColumn, and, eq, gte, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { QueryNode } from '../../../contract/query/ast.ts';
import { type Executor, rowsOf } from '../../db/database.ts';
import { eventRollupDay, eventRollupHour, eventRollupMinute, events } from '../../db/schema/events.ts';
import { compileQuery, type EventQueryColumns } from './compile-query.ts';
import { edgeFacetCountsSql, type RolledFacet, rolledFacets, type Tier, tierSeconds } from './rollups.ts';

/** Whether a query names nothing but the rollup key (the action and the firewall), so rollup rows answer it. */
export function rollupAnswerable(ast: QueryNode): boolean {
  switch (ast.kind) {
    case 'and':
    case 'or':
      return ast.children.every(rollupAnswerable);
    case 'not':
      return rollupAnswerable(ast.child);
    case 'equals':
      return ast.field === 'action';
    case 'firewall':
      return true;
    default:
      return false;
  }
}

/** A rolled facet's values a query term selects: the facet and the condition on a rollup row's value. */
export type FacetSelector = { facet: RolledFacet; where: (value: SQL | AnyColumn) => SQL };

/**
 * The rolled facet value(s) one query term selects, where every matching event has exactly one such value row in the
 * facet rollups (rules and tags are stored once per event): an exact tag, one rule id, severities, a country or a
 * host (both compared ignoring case, as the query does).
 */
function facetSelector(node: QueryNode): FacetSelector | null {
  switch (node.kind) {
    case 'tag':
      return node.prefix ? null : { facet: 'tag', where: (value) => sql`${value} = ${node.value}` };
    case 'compare':
      return node.field === 'rule' && node.op === '='
        ? { facet: 'rule', where: (value) => sql`${value} = ${String(node.value)}` }
        : null;
    case 'severity':
      return {
        facet: 'severity',
        where: (value) =>
          node.levels.length === 0
            ? sql`false`
            : sql`${value} in (${sql.join(
                node.levels.map((level) => sql`${level}`),
                sql`, `,
              )})`,
      };
    case 'equals':
      return node.field === 'country' || node.field === 'host'
        ? { facet: node.field, where: (value) => sql`lower(${value}) = ${node.value}` }
        : null;
    default:
      return null;
  }
}

/**
 * How the facet rollups count a query's events, or null when they cannot: the query's terms on the rollup key, and
 * at most one term selecting facet values (`tag:x`, `rule:n`, `severity:…`, `country:…`, `host:…`) ANDed with them,
 * whose rows then count the events in place of the severity rows. Used by histograms of whole hours; facets need
 * every value of each event, so they take only key-only queries.
 */
export function facetRollupCount(ast: QueryNode): { key: QueryNode; selector: FacetSelector | null } | null {
  if (rollupAnswerable(ast)) return { key: ast, selector: null };
  const terms = ast.kind === 'and' ? ast.children : [ast];
  const others = terms.filter((term) => !rollupAnswerable(term));
  const [only] = others;
  if (others.length !== 1 || !only) return null;
  const selector = facetSelector(only);
  return selector ? { key: { kind: 'and', children: terms.filter((term) => term !== only) }, selector } : null;
}

type RollupTable = typeof eventRollupMinute | typeof eventRollupHour | typeof eventRollupDay;

/** The query over a rollup's columns: only answerable queries reach here, which read the action and firewall. */
function rollupCondition(ast: QueryNode, table: RollupTable): SQL {
  const columns = new Proxy({ action: table.action, firewallId: table.firewallId } as Partial<EventQueryColumns>, {
    get(target, key: keyof EventQueryColumns) {
      const column = target[key];
      if (!column) throw new Error(`A rollup has no ${String(key)}`);
      return column;
    },
  }) as EventQueryColumns;
  return compileQuery(ast, columns);
}

const ms = (tier: Tier) => tierSeconds[tier] * 1000;
const floorTo = (at: number, width: number) => Math.floor(at / width) * width;
const ceilTo = (at: number, width: number) => Math.ceil(at / width) * width;

/** A stretch of time [from, to) of whole buckets of a tier; an open end is null. */
export type Whole = { tier: Tier; from: number | null; to: number | null };
/** A stretch read from the events, both ends inclusive as the API's range is: [from, to]. */
export type Edge = { from: number | null; to: number | null; toInclusive: boolean };

/**
 * Cuts [from, to] (to inclusive; an open end is null) into whole buckets of the given tiers, coarsest in the middle,
 * and the ragged edges outside the finest tier's whole buckets.
 */
export function cutRange(from: number | null, to: number | null, tiers: Tier[]): { whole: Whole[]; edges: Edge[] } {
  const whole: Whole[] = [];
  const left = from;
  const right = to;
  // Coarsest first: each finer tier fills the gaps between the coarser stretch and the range's ends.
  const ordered = [...tiers].sort((a, b) => tierSeconds[b] - tierSeconds[a]);
  let inner: { from: number | null; to: number | null } | null = null;
  for (const tier of ordered) {
    const width = ms(tier);
    const a = left === null ? null : ceilTo(left, width);
    const b = right === null ? null : floorTo(right, width);
    if (a !== null && b !== null && a >= b) continue;
    if (inner === null) {
      whole.push({ tier, from: a, to: b });
    } else {
      if (inner.from !== null && (a === null || a < inner.from)) whole.push({ tier, from: a, to: inner.from });
      if (inner.to !== null && (b === null || b > inner.to)) whole.push({ tier, from: inner.to, to: b });
    }
    inner = { from: a, to: b };
  }
  const edges: Edge[] = [];
  if (inner === null) {
    edges.push({ from: left, to: right, toInclusive: true });
  } else {
    if (inner.from !== null) edges.push({ from: left, to: inner.from, toInclusive: false });
    if (inner.to !== null) edges.push({ from: inner.to, to: right, toInclusive: true });
  }
  return { whole, edges };
}

const tables: Record<Tier, RollupTable> = {
  minute: eventRollupMinute,
  hour: eventRollupHour,
  day: eventRollupDay,
};

/** The rows of one whole stretch of a rollup: the space, the buckets, the query. */
export function wholeWhere(spaceId: string, ast: QueryNode, stretch: Whole): SQL {
  const table = tables[stretch.tier];
  const where: SQL[] = [eq(table.spaceId, spaceId), rollupCondition(ast, table)];
  if (stretch.from !== null) where.push(gte(table.bucket, new Date(stretch.from)));
  if (stretch.to !== null) where.push(lt(table.bucket, new Date(stretch.to)));
  return and(...where) as SQL;
}

/** The events of one edge: the space, the stretch of time, the whole query. */
export function edgeWhere(spaceId: string, query: SQL, edge: Edge): SQL {
  const where: SQL[] = [eq(events.spaceId, spaceId), query];
  if (edge.from !== null) where.push(gte(events.time, new Date(edge.from)));
  if (edge.to !== null)
    where.push(edge.toInclusive ? lte(events.time, new Date(edge.to)) : lt(events.time, new Date(edge.to)));
  return and(...where) as SQL;
}

/** One facet's top values, as the raw facets query orders them: count descending, then value. */
export type FacetRow = { k: string; v: string | null; n: number | string };

/**
 * The heavy rows of the client-address facet: an address with at least this many events in one rollup row (a
 * day's or an hour's, under one source, firewall and action) is a candidate for a range's top addresses. The
 * partial indexes of migration 0009 hold exactly these rows, so the constants must match their predicates.
 */
export const heavyIpThreshold = { day: 16, hour: 2 } as const;
/** An address with at least this many events in a range's ragged edges is a candidate too. */
const heavyEdgeThreshold = 2;

/**
 * Which facets' statement to build: every facet (the ip facet pruned to its heavy values, or counted whole), or the
 * ip facet alone (counted whole, or pruned: a dashboard's top client addresses).
 */
export type FacetPlan = 'pruned' | 'whole' | 'ip-only' | 'ip-pruned';

/**
 * Facet counts from the day and hour rollups and the edges' events: the total, the actions (from the severity rows,
 * one per event) and the top `size` values of each rolled facet, as `FacetRow`s.
 *
 * The client addresses are the one facet with as many values as events (most clients send a handful of requests),
 * so counting every address-day of a week reads hundreds of thousands of rows. With `pruned` their top values are
 * found among the heavy rows (`heavyIpThreshold`) and the edges' frequent addresses, whose exact totals are read
 * through the address index; every other address has fewer than the threshold in each of its rows, so at most
 * `(threshold - 1)` per day or hour and key, which the statement answers as the row `ip:bound` (with the number of
 * candidates as `ip:candidates`). The answer is exact when the `size`-th candidate counts more than the bound;
 * otherwise `rollupFacets` counts the addresses whole.
 */
export function rollupFacetsSql(
  spaceId: string,
  ast: QueryNode,
  range: { from: number | null; to: number | null },
  size: number,
  plan: FacetPlan = 'whole',
): SQL {
  const query = compileQuery(ast, events);
  const { whole, edges } = cutRange(range.from, range.to, ['day', 'hour']);
  // The edges' events, once, expanded into facet rows (a couple of hours of events at most).
  const ctes: SQL[] = [];
  if (edges.length > 0) {
    const parts = edges.map(
      (edge) =>
        sql`select action, severity, country, host, ip, rule_ids, tags from ${events} where ${edgeWhere(spaceId, query, edge)}`,
    );
    ctes.push(sql`edge_events as (${sql.join(parts, sql` union all `)})`);
    // Counted once per (facet, value, action), so each facet below reads a few rows per value, not one per event.
    ctes.push(sql`edge_rows as materialized (${sql.raw(edgeFacetCountsSql('edge_events'))})`);
  }
  const tableOf = (stretch: Whole) => (stretch.tier === 'day' ? eventRollupDay : eventRollupHour);
  // One facet's (value, action, n) rows: its rows of each whole stretch (read by the key, which starts with the space
  // and the facet), then the edges'; `also` narrows the rollup rows further.
  const facetRows = (
    facet: string,
    also?: (table: typeof eventRollupDay | typeof eventRollupHour) => SQL,
    edgeAlso?: SQL,
  ): SQL => {
    const parts: SQL[] = whole.map((stretch) => {
      const table = tableOf(stretch);
      return sql`select ${table.value} as value, ${table.action} as action, ${table.n} as n from ${table} where ${wholeWhere(spaceId, ast, stretch)} and ${table.facet} = ${sql.raw(`'${facet}'`)}${also ? sql` and ${also(table)}` : sql``}`;
    });
    if (edges.length > 0)
      parts.push(
        sql`select value, action, n from edge_rows where facet = ${sql.raw(`'${facet}'`)}${edgeAlso ? sql` and ${edgeAlso}` : sql``}`,
      );
    return parts.length > 0
      ? sql.join(parts, sql` union all `)
      : sql`select null::text, null::text, 0::bigint where false`;
  };
  // Each facet is its own top-N (the database keeps only the best `size` while counting); every event has one
  // severity, so the severity rows also count the actions and the total.
  const top = (key: string, column: 'value' | 'action', rows: SQL) =>
    sql`(select ${sql.raw(`'${key}'`)} as k, ${sql.raw(column)} as v, sum(n)::bigint as n from (${rows}) as x group by 2 order by 3 desc, 2 limit ${size})`;
  const branches: SQL[] = [];
  if (plan !== 'ip-only' && plan !== 'ip-pruned') {
    branches.push(
      sql`(select 'total' as k, null::text as v, coalesce(sum(n), 0)::bigint as n from (${facetRows('severity')}) as x)`,
      top('action', 'action', facetRows('severity')),
      ...rolledFacets.filter((facet) => facet !== 'ip').map((facet) => top(facet, 'value', facetRows(facet))),
    );
  }
  if (plan === 'whole' || plan === 'ip-only') {
    branches.push(top('ip', 'value', facetRows('ip')));
  } else {
    // Candidates: the addresses of the heavy rows (read through the partial indexes) and the edges' frequent ones.
    const heavy: SQL[] = whole.map((stretch) => {
      const table = tableOf(stretch);
      return sql`select ${table.value} from ${table} where ${wholeWhere(spaceId, ast, stretch)} and ${table.facet} = 'ip' and ${table.n} >= ${sql.raw(String(heavyIpThreshold[stretch.tier as 'day' | 'hour']))}`;
    });
    if (edges.length > 0)
      heavy.push(
        sql`select value from edge_rows where facet = 'ip' group by value having sum(n) >= ${sql.raw(String(heavyEdgeThreshold))}`,
      );
    ctes.push(
      sql`ip_heavy as materialized (${heavy.length > 0 ? sql.join(heavy, sql` union `) : sql`select null::text as value where false`})`,
    );
    // Their exact totals: every row of each candidate in the range (through the address index), and its edge rows.
    ctes.push(
      sql`ip_exact as materialized (select value, sum(n)::bigint as n from (${facetRows(
        'ip',
        (table) => sql`${table.value} in (select value from ip_heavy)`,
        sql`value in (select value from ip_heavy)`,
      )}) as x group by value)`,
    );
    // Any other address: below the threshold in each of its rows (one per bucket and key), and in the edges below
    // the edge threshold (its largest edge count there).
    const keys = whole.map((stretch) => {
      const table = tableOf(stretch);
      const below = heavyIpThreshold[stretch.tier as 'day' | 'hour'] - 1;
      return sql`${sql.raw(String(below))} * (select count(*) from (select distinct ${table.bucket}, ${table.sourceId}, ${table.firewallId}, ${table.action} from ${table} where ${wholeWhere(spaceId, ast, stretch)} and ${table.facet} = 'severity') as k)`;
    });
    if (edges.length > 0)
      keys.push(
        sql`coalesce((select max(s) from (select sum(n) as s from edge_rows where facet = 'ip' group by value having sum(n) < ${sql.raw(String(heavyEdgeThreshold))}) as e), 0)`,
      );
    branches.push(
      sql`(select 'ip' as k, value as v, n from ip_exact order by n desc, value limit ${size})`,
      sql`(select 'ip:bound' as k, null::text as v, (${keys.length > 0 ? sql.join(keys, sql` + `) : sql`0`})::bigint as n)`,
      sql`(select 'ip:candidates' as k, null::text as v, count(*)::bigint as n from ip_exact)`,
    );
  }
  return sql`${ctes.length > 0 ? sql`with ${sql.join(ctes, sql`, `)} ` : sql``}${sql.join(branches, sql` union all `)}`;
}

/**
 * The facets of a query the rollups answer (`rollupAnswerable`): one statement with the client addresses pruned to
 * their heavy values, and a second counting the addresses whole only when the bound does not settle their top
 * `size` (few events, or no address standing out). `ipPruned` says which answered. With `ipOnly`, the client
 * addresses alone.
 */
export async function rollupFacets(
  db: Executor,
  spaceId: string,
  ast: QueryNode,
  range: { from: number | null; to: number | null },
  size: number,
  options: { ipOnly?: boolean } = {},
): Promise<{ rows: FacetRow[]; ipPruned: boolean }> {
  const plan = options.ipOnly ? 'ip-pruned' : 'pruned';
  const rows = rowsOf<FacetRow>(await db.execute(rollupFacetsSql(spaceId, ast, range, size, plan)));
  const ips = rows.filter((row) => row.k === 'ip');
  const bound = Number(rows.find((row) => row.k === 'ip:bound')?.n ?? Number.POSITIVE_INFINITY);
  const candidates = Number(rows.find((row) => row.k === 'ip:candidates')?.n ?? 0);
  const rest = rows.filter((row) => !row.k.startsWith('ip'));
  const last = ips.at(-1);
  // Settled: `size` candidates, the last of which counts more than any other address can. (Every address is a
  // candidate when the bound is 0: nothing else has an event in the range.)
  if ((ips.length === size && last && Number(last.n) > bound) || (bound === 0 && candidates === ips.length)) {
    return { rows: [...rest, ...ips], ipPruned: true };
  }
  const whole = rowsOf<FacetRow>(await db.execute(rollupFacetsSql(spaceId, ast, range, size, 'ip-only')));
  return { rows: [...rest, ...whole], ipPruned: false };
}

/** The tier a histogram of `intervalSeconds` can be counted from, coarsest first, or null (raw events only). */
export function histogramTier(intervalSeconds: number): Tier | null {
  if (intervalSeconds % tierSeconds.day === 0) return 'day';
  if (intervalSeconds % tierSeconds.hour === 0) return 'hour';
  if (intervalSeconds % tierSeconds.minute === 0) return 'minute';
  return null;
}

/** A histogram's buckets: `intervalSeconds` wide, starting at `origin` (a multiple of it since the epoch). */
export type Bucketing = { tier: Tier; origin: number; intervalSeconds: number };

/**
 * Matching and blocked events per bucket, from the rollup of `tier` (and the finer ones) for its whole buckets in
 * the range and the events at the edges: rows of bucket index, total, blocked and logged. A query with a facet term
 * (`facetRollupCount`) counts its facet's rows of hours and days, and reads the events of up to an hour at each edge.
 * Null where the rollups cannot count the histogram: the query selects more than the rollup key and one facet term,
 * or it selects a facet value and the buckets are not whole hours (the minute rollup has no facets).
 */
export function rollupHistogram(
  spaceId: string,
  ast: QueryNode,
  range: { from: number; to: number },
  { tier, origin, intervalSeconds }: Bucketing,
): SQL | null {
  const counted = facetRollupCount(ast);
  if (!counted || (counted.selector && tier === 'minute')) return null;
  const { key, selector } = counted;
  const query = compileQuery(ast, events);
  // Whole buckets of the tier, then of every finer one down to minutes (to hours with a facet term), so the events
  // read at the edges are less than a minute's (an hour's) at each end (every finer width divides the interval).
  const finest: Tier[] = selector ? ['day', 'hour'] : ['day', 'hour', 'minute'];
  const finer = finest.slice(finest.indexOf(tier));
  const { whole, edges } = cutRange(range.from, range.to, finer);
  const index = (time: SQL) =>
    sql`floor((date_part('epoch', ${time}) - ${origin / 1000}::double precision) / ${intervalSeconds}::double precision)::int`;
  const parts: SQL[] = whole.map((stretch) => {
    const table = tables[stretch.tier];
    // The facet tiers count each event once under `severity`, or once under the selected facet's value.
    let only = sql`true`;
    if (stretch.tier !== 'minute') {
      const facetTable = table as typeof eventRollupHour;
      only = selector
        ? sql`${facetTable.facet} = ${selector.facet} and ${selector.where(facetTable.value)}`
        : sql`${facetTable.facet} = 'severity'`;
    }
    return sql`select ${index(sql`${table.bucket}`)} as bucket, ${table.action} as action, ${table.n} as n from ${table} where ${wholeWhere(spaceId, key, stretch)} and ${only}`;
  });
  for (const edge of edges) {
    parts.push(
      sql`select ${index(sql`${events.time}`)} as bucket, ${events.action} as action, 1::bigint as n from ${events} where ${edgeWhere(spaceId, query, edge)}`,
    );
  }
  return sql`
    select bucket, sum(n)::bigint as total, coalesce(sum(n) filter (where action = 'blocked'), 0)::bigint as blocked,
      coalesce(sum(n) filter (where action = 'logged'), 0)::bigint as logged
    from (${sql.join(parts, sql` union all `)}) as counted group by bucket`;
}
