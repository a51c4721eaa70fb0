/** What a remedy would have touched: the firewall's stored requests of the last 7 days it matches. */
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { QueryNode } from '../../../contract/query/ast.ts';
import type { Remedy, RemedyPreview } from '../../../contract/waf.ts';
import type { SpaceCaller } from '../../caller.ts';
import { rowsOf } from '../../db/database.ts';
import { events } from '../../db/schema/events.ts';
import { compileQuery } from '../events/compile-query.ts';

/** How far back a preview looks. */
const LOOKBACK_MS = 7 * 86_400_000;

/** The requests a remedy is about, in the event query language's terms: from the network, or with the rule on the path. */
function matchOf(remedy: Remedy): QueryNode {
  if (remedy.kind === 'block-ip') return { kind: 'ip', cidr: remedy.ip };
  return {
    kind: 'and',
    children: [
      { kind: 'compare', field: 'rule', op: '=', value: remedy.ruleId },
      { kind: 'path', value: remedy.path, prefix: true },
    ],
  };
}

/**
 * Requests and distinct client IPs of the firewall over the 7 days to `now` that the remedy matches, with how many
 * requests the firewall saw at all and what the remedy matches space-wide: a firewall that has seen no traffic yet
 * (its events come through a log source, or it was just made) would otherwise read "0 requests".
 */
export async function remedyAffected(sc: SpaceCaller, remedy: Remedy, now: Date): Promise<RemedyPreview['affected']> {
  const from = new Date(now.getTime() - LOOKBACK_MS);
  const window = and(eq(events.spaceId, sc.space.id), gte(events.time, from), lte(events.time, now));
  const matches = compileQuery(matchOf(remedy), events);
  const onFirewall = compileQuery({ kind: 'firewall', id: remedy.firewallId.toLowerCase() }, events);
  const [row] = await sc.deps.searches.run('facets', sc.space.id, async (db) =>
    rowsOf<{ requests: number; ips: number; seen: number; spaceRequests: number; spaceIps: number }>(
      await db.execute(
        sql`select count(*) filter (where ${onFirewall} and ${matches})::int as requests,
          count(distinct ${events.ip}) filter (where ${onFirewall} and ${matches})::int as ips,
          count(*) filter (where ${onFirewall})::int as seen,
          count(*) filter (where ${matches})::int as "spaceRequests",
          count(distinct ${events.ip}) filter (where ${matches})::int as "spaceIps"
          from ${events} where ${window}`,
      ),
    ),
  );
  return {
    requests: Number(row?.requests ?? 0),
    distinctIps: Number(row?.ips ?? 0),
    from: from.toISOString(),
    to: now.toISOString(),
    firewallRequests: Number(row?.seen ?? 0),
    space: { requests: Number(row?.spaceRequests ?? 0), distinctIps: Number(row?.spaceIps ?? 0) },
  };
}
