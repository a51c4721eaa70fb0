/**
 * The events store's rollups: counts of events per minute (by source, firewall and action) and facet counts per
 * hour and per UTC day (the same key, plus facet and value). Ingest maintains them in the transaction that stores
 * the events, so a rollup row is always exactly the count of its bucket's stored events; retention deletes whole
 * buckets with the events they count (whole UTC days). Searches answer from them where the query only names the
 * rollup key (server/services/events/tiers.ts); nothing here changes an answer, only how fast it comes.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';

/** Where every bucket boundary is counted from: whole minutes, hours and days in UTC. */
export const rollupOrigin = '2000-01-01T00:00:00Z';

/** The tiers and their width in seconds; the facet tables are hour and day. */
export const tierSeconds = { minute: 60, hour: 3_600, day: 86_400 } as const;
export type Tier = keyof typeof tierSeconds;

/** The facets a facet rollup counts (the action is the key; every event has exactly one severity). */
export const rolledFacets = ['severity', 'country', 'host', 'ip', 'rule', 'tag'] as const;
export type RolledFacet = (typeof rolledFacets)[number];

const bin = (tier: Tier, column: string) => `date_bin('1 ${tier}', ${column}, timestamptz '${rollupOrigin}')`;

/**
 * SQL selecting one row per (event, facet value) of the events in `relation` (a table or CTE with the events'
 * columns): its space, time, source, firewall and action, then the facet's name and value. Each event gives one
 * `severity` row (so the severity rows of a bucket count its events), one row each for its country, host and ip
 * when set, and one per element of its rules and tags.
 */
export function facetRowsSql(relation: string): string {
  return `select e.space_id, e.time, e.source_id, e.firewall_id, e.action, f.facet, f.value
    from ${relation} e cross join lateral (
      select 'severity'::text as facet, e.severity::text as value
      union all select 'country', e.country::text where e.country is not null
      union all select 'host', e.host where e.host is not null
      union all select 'ip', e.ip where e.ip is not null
      union all select 'rule', r::text from unnest(e.rule_ids) as r where r is not null
      union all select 'tag', t from unnest(e.tags) as t where t is not null
    ) f`;
}

/**
 * SQL counting the events of `relation` per (facet, value, action), as `facetRowsSql` grouped by those would, for
 * the few hours of events a read counts at a range's edges: one pass of grouping sets over the events (a hash
 * table per facet) instead of a row per event and value. Rule and tag sets are grouped whole, then unnested once
 * per distinct set. Columns: facet, value, action, n.
 */
export function edgeFacetCountsSql(relation: string): string {
  // grouping(severity, country, host, ip, rule_ids, tags): a bit per argument, set where it is not grouped.
  const only = { severity: 31, country: 47, host: 55, ip: 59, rule: 61, tag: 62 };
  return `select f.facet, f.value, g.action, sum(g.n)::bigint as n from (
      select action, severity, country, host, ip, rule_ids, tags, count(*) as n,
        grouping(severity, country, host, ip, rule_ids, tags) as set
      from ${relation}
      group by grouping sets ((action, severity), (action, country), (action, host), (action, ip), (action, rule_ids),
        (action, tags))
    ) g cross join lateral (
      select 'severity'::text as facet, g.severity::text as value where g.set = ${only.severity}
      union all select 'country', g.country::text where g.set = ${only.country} and g.country is not null
      union all select 'host', g.host where g.set = ${only.host} and g.host is not null
      union all select 'ip', g.ip where g.set = ${only.ip} and g.ip is not null
      union all select 'rule', r::text from unnest(g.rule_ids) as r where g.set = ${only.rule} and r is not null
      union all select 'tag', t from unnest(g.tags) as t where g.set = ${only.tag} and t is not null
    ) f group by 1, 2, 3`;
}

/**
 * The statement adding the events of `relation` to the minute rollup. Rows go in key order, so concurrent
 * writers of one space wait for each other rather than deadlock (ingest also holds the space's usage row).
 */
export function minuteUpsertSql(relation: string): string {
  return `insert into event_rollup_minute (space_id, bucket, source_id, firewall_id, action, n)
    select space_id, ${bin('minute', 'time')}, source_id, firewall_id, action, count(*)
    from ${relation} group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
    on conflict (space_id, bucket, source_id, firewall_id, action) do update
      set n = event_rollup_minute.n + excluded.n`;
}

/** The statement adding facet rows (`facetRowsSql`'s shape, in `relation`) to the hour or day rollup. */
export function facetUpsertSql(tier: 'hour' | 'day', relation: string): string {
  const table = `event_rollup_${tier}`;
  return `insert into ${table} (space_id, bucket, source_id, firewall_id, action, facet, value, n)
    select space_id, ${bin(tier, 'time')}, source_id, firewall_id, action, facet, value, count(*)
    from ${relation} group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 4, 5, 6, 7
    on conflict (space_id, bucket, source_id, firewall_id, action, facet, value) do update
      set n = ${table}.n + excluded.n`;
}

/**
 * Builds the rollups of every stored event from scratch (all spaces, or one): for a bulk load that bypassed ingest
 * (the benchmarks' COPY, the demo) and the migration that created them. Answers nothing; run it in a transaction
 * with the load, or while nothing ingests.
 */
export async function rebuildRollups(db: Executor, spaceId?: string): Promise<void> {
  const only = spaceId ? ` where space_id = '${uuid(spaceId)}'` : '';
  for (const table of ['event_rollup_minute', 'event_rollup_hour', 'event_rollup_day']) {
    await db.execute(sql.raw(`delete from ${table}${only}`));
  }
  const events = `ev as (select * from events${only})`;
  await db.execute(sql.raw(`with ${events} ${minuteUpsertSql('ev')}`));
  for (const tier of ['hour', 'day'] as const) {
    await db.execute(
      sql.raw(`with ${events}, facet_rows as (${facetRowsSql('ev')}) ${facetUpsertSql(tier, 'facet_rows')}`),
    );
  }
}

/** A space id checked to be a UUID, safe to write into SQL text. */
function uuid(id: string): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new Error(`not a uuid: ${id}`);
  return id;
}
