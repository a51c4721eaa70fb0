/**
 * The statements of a widget's query (server/services/dashboards/query.ts): one over the matching events for any
 * metric and grouping, and one counting a rolled field's values from the day and hour facet rollups plus the
 * events at the range's ragged edges. Both answer rows of (x, v), x the group (bucket index, value, or null).
 */
import { type AnyColumn, and, type SQL, sql } from 'drizzle-orm';
import type { WidgetMetric } from '../../../contract/constants/dashboards.ts';
import { type DashboardField, dashboardFields } from '../../../contract/constants/dashboards.ts';
import type { QueryNode } from '../../../contract/query/ast.ts';
import { eventRollupDay, eventRollupHour, events } from '../../db/schema/events.ts';
import { compileQuery } from '../events/compile-query.ts';
import { whereOf } from '../events/filters.ts';
import type { RolledFacet } from '../events/rollups.ts';
import { cutRange, edgeWhere, wholeWhere } from '../events/tiers.ts';

/** How the raw statement groups: by a bucket index over `events.time`, by a field's values (top N), or not at all. */
export type Grouping =
  | { kind: 'time'; index: SQL }
  | { kind: 'field'; field: DashboardField; limit: number }
  | { kind: 'none' };

/** The events column each dashboard field reads. */
export const fieldColumns: Readonly<Record<DashboardField, AnyColumn>> = {
  action: events.action,
  severity: events.severity,
  country: events.country,
  host: events.host,
  ip: events.ip,
  method: events.method,
  path: events.path,
  status: events.status,
  ruleIds: events.ruleIds,
  tags: events.tags,
  userAgent: events.userAgent,
  firewallId: events.firewallId,
  sourceId: events.sourceId,
};

/** Fields whose values are numbers in a group's x (and whose ties are ordered numerically). */
const numericValue = (field: DashboardField) => dashboardFields[field].numeric || field === 'ruleIds';

/**
 * The facet of the hour and day rollups that counts a field's values, or null for fields not rolled. The action is
 * the rollups' key: every event has one `severity` row, so those rows grouped by their action count the actions.
 */
export function rolledFacetOf(field: DashboardField): RolledFacet | null {
  switch (field) {
    case 'action':
    case 'severity':
      return 'severity';
    case 'country':
    case 'host':
    case 'ip':
      return field;
    case 'ruleIds':
      return 'rule';
    case 'tags':
      return 'tag';
    default:
      return null;
  }
}

/** The bucket of an event's time: buckets `intervalSeconds` wide from `origin` (epoch ms), numbered from 0. */
export function bucketIndexSql(origin: number, intervalSeconds: number): SQL {
  // date_part answers double precision; extract answers numeric, whose arithmetic is far slower per row.
  return sql`floor((date_part('epoch', ${events.time}) - ${origin / 1000}::double precision) / ${intervalSeconds}::double precision)::int`;
}

/**
 * The metric of the matching events (between `range.from` and `range.to`, both inclusive) under a grouping, as
 * one statement over `events`. Array fields grouped count an event once per element; a distinct count of an array
 * field counts distinct elements; sum and average skip events without a value.
 */
export function rawQuerySql(
  spaceId: string,
  filter: string,
  range: { from: number; to: number },
  metric: WidgetMetric,
  field: DashboardField | undefined,
  grouping: Grouping,
): SQL {
  const where: SQL[] = whereOf(spaceId, {
    q: filter,
    from: new Date(range.from).toISOString(),
    to: new Date(range.to).toISOString(),
  });
  const joins: SQL[] = [];
  // The group's value where grouped by a field: an array's elements through a lateral unnest (an event without
  // elements drops out), a scalar's value as text (numbers as they are); events without one are left out.
  let groupValue: SQL | null = null;
  if (grouping.kind === 'field') {
    const column = fieldColumns[grouping.field];
    if (dashboardFields[grouping.field].array) {
      joins.push(sql`cross join lateral unnest(${column}) as g(v)`);
      groupValue = sql`g.v`;
    } else {
      groupValue = numericValue(grouping.field) ? sql`${column}` : sql`${column}::text`;
    }
    where.push(sql`${groupValue} is not null`);
  }
  let measure: SQL;
  switch (metric) {
    case 'count':
      measure = sql`count(*)::bigint`;
      break;
    case 'distinct': {
      if (!field) throw new Error('distinct needs a field');
      if (groupValue && grouping.kind === 'field' && grouping.field === field) {
        measure = sql`count(distinct ${groupValue})::bigint`;
      } else if (dashboardFields[field].array) {
        // A left join, so an event without elements still counts in its group (as no value).
        joins.push(sql`left join lateral unnest(${fieldColumns[field]}) as m(v) on true`);
        measure = sql`count(distinct m.v)::bigint`;
      } else {
        measure = sql`count(distinct ${fieldColumns[field]})::bigint`;
      }
      break;
    }
    case 'sum':
      measure = sql`coalesce(sum(${fieldColumns[field ?? 'status']}), 0)::bigint`;
      break;
    case 'avg':
      measure = sql`avg(${fieldColumns[field ?? 'status']})::double precision`;
      break;
  }
  const base = sql`from ${events} ${sql.join(joins, sql` `)} where ${and(...where)}`;
  switch (grouping.kind) {
    case 'none':
      return sql`select null as x, ${measure} as v ${base}`;
    case 'time':
      // By position: the bucket expression carries parameters, so repeating it would not match.
      return sql`select ${grouping.index} as x, ${measure} as v ${base} group by 1`;
    case 'field':
      return sql`select ${groupValue} as x, ${measure} as v ${base} group by 1 order by 2 desc nulls last, 1 limit ${grouping.limit}`;
  }
}

/**
 * The values of a rolled field among the events of a rollup-answerable query (`rollupAnswerable`: the action and
 * the firewall only), as rows of (value, n): the day and hour facet rows of the whole buckets of the range (one
 * facet's rows only, read by the rollup key, which starts with the space and the facet), and the events at its
 * ragged edges (less than an hour at each end), each counted once per value as the rollups count them.
 */
function rolledValues(
  spaceId: string,
  ast: QueryNode,
  range: { from: number; to: number },
  field: DashboardField,
  facet: RolledFacet,
): SQL {
  const { whole, edges } = cutRange(range.from, range.to, ['day', 'hour']);
  const facetName = sql.raw(`'${facet}'`);
  const parts: SQL[] = whole.map((stretch) => {
    const table = stretch.tier === 'day' ? eventRollupDay : eventRollupHour;
    const value = field === 'action' ? sql`${table.action}::text` : sql`${table.value}`;
    return sql`select ${value} as value, ${table.n} as n from ${table} where ${wholeWhere(spaceId, ast, stretch)} and ${table.facet} = ${facetName}`;
  });
  const query = compileQuery(ast, events);
  const column = fieldColumns[field];
  const array = dashboardFields[field].array;
  const edgeValue = array ? sql`g.v::text` : sql`${column}::text`;
  const join = array ? sql`cross join lateral unnest(${column}) as g(v)` : sql``;
  for (const edge of edges) {
    parts.push(
      sql`select ${edgeValue} as value, 1::bigint as n from ${events} ${join} where ${edgeWhere(spaceId, query, edge)} and ${edgeValue} is not null`,
    );
  }
  return sql.join(parts, sql` union all `);
}

/** A rolled field's values counted (`rolledValues`), top `limit` by count then value. */
export function rollupFieldSql(
  spaceId: string,
  ast: QueryNode,
  range: { from: number; to: number },
  field: DashboardField,
  facet: RolledFacet,
  limit: number,
): SQL {
  const tie = numericValue(field) ? sql`value::integer` : sql`value`;
  return sql`select value as x, sum(n)::bigint as v from (${rolledValues(spaceId, ast, range, field, facet)}) as counted
    group by value order by 2 desc, ${tie} limit ${limit}`;
}

/**
 * How many distinct values of a rolled field the events of a rollup-answerable query have (`rolledValues`): every
 * value of an event has its row in the facet rollups, so the distinct values of those rows are the events' own.
 */
export function rollupDistinctSql(
  spaceId: string,
  ast: QueryNode,
  range: { from: number; to: number },
  field: DashboardField,
  facet: RolledFacet,
): SQL {
  return sql`select null as x, count(distinct value)::bigint as v from (${rolledValues(spaceId, ast, range, field, facet)}) as counted`;
}
