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
  const firewall: QueryNode = { kind: 'firewall', id: remedy.firewallId.toLowerCase() };
  if (remedy.kind === 'block-ip') return { kind: 'and', children: [firewall, { kind: 'ip', cidr: remedy.ip }] };
  return {
    kind: 'and',
    children: [
      firewall,
      { kind: 'compare', field: 'rule', op: '=', value: remedy.ruleId },
      { kind: 'path', value: remedy.path, prefix: true },
    ],
  };
}

/** Requests and distinct client IPs of the firewall over the 7 days to `now` that the remedy matches. */
export async function remedyAffected(sc: SpaceCaller, remedy: Remedy, now: Date): Promise<RemedyPreview['affected']> {
  const from = new Date(now.getTime() - LOOKBACK_MS);
  const where = and(
    eq(events.spaceId, sc.space.id),
    gte(events.time, from),
    lte(events.time, now),
    compileQuery(matchOf(remedy), events),
  );
  const [row] = await sc.deps.searches.run('facets', sc.space.id, async (db) =>
    rowsOf<{ requests: number; ips: number }>(
      await db.execute(
        sql`select count(*)::int as requests, count(distinct ${events.ip})::int as ips from ${events} where ${where}`,
      ),
    ),
  );
  return {
    requests: Number(row?.requests ?? 0),
    distinctIps: Number(row?.ips ?? 0),
    from: from.toISOString(),
    to: now.toISOString(),
  };
}
