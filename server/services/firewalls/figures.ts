/** The firewall list's 24 h figures: events and blocked requests per firewall, in hourly buckets for a sparkline. */
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { FirewallSummary } from '../../../contract/firewalls.ts';
import type { Executor } from '../../db/database.ts';
import { eventRollupHour } from '../../db/schema/events.ts';

type Figures = Pick<FirewallSummary, 'events24h' | 'blocked24h' | 'hourly'>;

const hourMs = 3_600_000;
const hours = 24;

/**
 * Figures of the space's firewalls over the last 24 hourly buckets (the current hour is the last): events whose
 * `firewall_id` names the firewall, and those the firewall blocked. Every firewall asked for gets 24 buckets.
 */
export async function firewallFigures(
  db: Executor,
  spaceId: string,
  ids: string[],
  now: Date,
): Promise<Map<string, Figures>> {
  const first = Math.floor(now.getTime() / hourMs) - (hours - 1);
  const empty = (): Figures => ({
    events24h: 0,
    blocked24h: 0,
    hourly: Array.from({ length: hours }, (_, i) => ({
      hour: new Date((first + i) * hourMs).toISOString(),
      events: 0,
      blocked: 0,
    })),
  });
  const out = new Map(ids.map((id) => [id, empty()]));
  if (ids.length === 0) return out;
  // From the hour rollup (every event counts once under `severity`; ingest keeps the current hour up to date), as
  // epoch hours, so buckets do not depend on the session's time zone.
  const r = eventRollupHour;
  const bucket = sql<number>`floor(extract(epoch from ${r.bucket}) / 3600)::int`;
  const rows = await db
    .select({
      firewallId: r.firewallId,
      bucket,
      events: sql<number>`sum(${r.n})::int`,
      blocked: sql<number>`coalesce(sum(${r.n}) filter (where ${r.action} = 'blocked'), 0)::int`,
    })
    .from(r)
    .where(
      and(
        eq(r.spaceId, spaceId),
        gte(r.bucket, new Date(first * hourMs)),
        inArray(r.firewallId, ids),
        eq(r.facet, 'severity'),
      ),
    )
    .groupBy(r.firewallId, bucket);
  for (const row of rows) {
    const figures = row.firewallId ? out.get(row.firewallId) : undefined;
    const slot = figures?.hourly[Number(row.bucket) - first];
    if (!figures || !slot) continue;
    slot.events = Number(row.events);
    slot.blocked = Number(row.blocked);
    figures.events24h += slot.events;
    figures.blocked24h += slot.blocked;
  }
  return out;
}
