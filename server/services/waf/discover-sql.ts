/** The one statement behind WAF discover: the top groups, their counts, top rules and every sparkline at once. */
import { and, type SQL, sql } from 'drizzle-orm';
import type { DiscoverGroup, DiscoverScope, DiscoverSort } from '../../../contract/constants/waf.ts';
import { events } from '../../db/schema/events.ts';

/** The sparklines' layout: `count` buckets `seconds` wide, the first starting at `origin` (epoch ms). */
export type BucketLayout = { origin: number; seconds: number; count: number };

/** What the statement is built from; `where` holds the space, the range and the compiled query (space first). */
export type DiscoverInput = {
  where: SQL[];
  scope: DiscoverScope;
  groupBy: DiscoverGroup;
  sort: DiscoverSort;
  limit: number;
  offset: number;
  layout: BucketLayout;
};

/**
 * One row of the answer: a group with its figures and its non-empty buckets (index and count, in order). With no
 * group at all there is one row whose `k` is null, carrying only the totals.
 */
export type DiscoverRow = {
  k: string | null;
  n: number;
  blocked: number;
  ips: number;
  first_ms: number;
  last_ms: number;
  top_rule: number | null;
  top_rule_n: number | null;
  spark_b: number[] | null;
  spark_n: number[] | null;
  total: number;
  groups: number;
};

/** The group key of an event of `base` (aliased `b`); rules come from the lateral unnest `r`. */
const keys: Readonly<Record<DiscoverGroup, string>> = {
  ip: 'b.ip',
  country: 'b.country::text',
  // The query string is not part of the path a person reads or excludes on.
  path: "split_part(b.path, '?', 1)",
  rule: 'r.rule::text',
};

/** The figure each order puts first; the count and then the key break ties. */
const firsts: Readonly<Record<DiscoverSort, string | null>> = {
  count: null,
  blocked: 'blocked',
  ips: 'ips',
  lastSeen: 'last_ms',
};

/** The order of the groups, over columns of the relation `alias` (empty: unqualified). */
function order(sort: DiscoverSort, alias: string): SQL {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  const first = firsts[sort];
  return sql.raw([...(first ? [`${column(first)} desc`] : []), `${column('n')} desc`, column('k')].join(', '));
}

/**
 * WAF discover's statement. `base` is the space's matching events of the range (WAF events unless the scope is all),
 * `keyed` the same with their group key (one row per rule for the rule grouping), `top` the page of groups in the chosen
 * order; then each top group's events are counted per bucket and per rule, and joined back, so the page's groups and
 * all their sparklines come from one round trip. Fixed names and expressions are constants; values are parameters.
 */
export function discoverStatement(input: DiscoverInput): SQL {
  const { layout } = input;
  const scope =
    input.scope === 'waf' ? sql`(${events.firewallId} is not null or cardinality(${events.ruleIds}) > 0)` : sql`true`;
  const unnest = input.groupBy === 'rule' ? sql.raw('cross join lateral unnest(b.rule_ids) as r(rule)') : sql.raw('');
  const bucket = sql`least(floor((date_part('epoch', k.time) - ${layout.origin / 1000}::double precision) / ${layout.seconds}::double precision)::int, ${layout.count - 1}::int)`;
  // The rule grouping's top rule is the group's own rule; the others count each rule id of the group's events.
  const rules =
    input.groupBy === 'rule'
      ? sql`select k, k::int as rule, n as c from top`
      : sql`select distinct on (k) k, rule, c from (
            select t.k, x.rule, count(*)::int as c
            from keyed k join top t on t.k = k.k cross join lateral unnest(k.rule_ids) as x(rule)
            group by 1, 2
          ) counted order by k, c desc, rule`;
  return sql`
    with base as materialized (
      select ${events.time} as time, ${events.action} as action, ${events.ip} as ip, ${events.path} as path,
        ${events.country} as country, ${events.ruleIds} as rule_ids
      from ${events} where ${and(...input.where, scope)}
    ),
    keyed as materialized (
      select ${sql.raw(keys[input.groupBy])} as k, b.time, b.action, b.ip, b.rule_ids from base b ${unnest}
    ),
    top as materialized (
      select k, count(*)::int as n, count(*) filter (where action = 'blocked')::int as blocked,
        count(distinct ip)::int as ips,
        (date_part('epoch', min(time)) * 1000)::float8 as first_ms,
        (date_part('epoch', max(time)) * 1000)::float8 as last_ms
      from keyed where k is not null and k <> '' group by k
      order by ${order(input.sort, '')} limit ${input.limit} offset ${input.offset}
    ),
    spark as (
      select k, array_agg(b order by b) as spark_b, array_agg(c order by b) as spark_n from (
        select k.k, ${bucket} as b, count(*)::int as c from keyed k join top t on t.k = k.k group by 1, 2
      ) per_bucket group by k
    ),
    rules as (${rules})
    select t.k, t.n, t.blocked, t.ips, t.first_ms, t.last_ms, r.rule as top_rule, r.c as top_rule_n,
      s.spark_b, s.spark_n, totals.total, totals.groups
    from (
      select (select count(*)::int from base) as total,
        (select count(distinct k)::int from keyed where k is not null and k <> '') as groups
    ) totals
    left join top t on true left join spark s on s.k = t.k left join rules r on r.k = t.k
    order by ${order(input.sort, 't')}`;
}
