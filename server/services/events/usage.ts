/** This month's ingest of a space against its plan's monthly quota (the overview's usage card). */
import { and, eq } from 'drizzle-orm';
import type { EventUsage } from '../../../contract/event-search.ts';
import type { SpaceCaller } from '../../caller.ts';
import { eventUsage } from '../../db/schema/usage.ts';
import { monthlyEventQuota, monthOf, startOfNextMonth } from '../limits/limits.ts';

/** Events stored and refused past the quota this month (UTC), the quota, and when it starts again. */
export async function usageThisMonth(sc: SpaceCaller): Promise<EventUsage> {
  const at = sc.deps.now();
  const month = monthOf(at);
  const { space } = sc;
  const [row] = await sc.deps.db
    .select()
    .from(eventUsage)
    .where(and(eq(eventUsage.spaceId, space.id), eq(eventUsage.month, month)));
  return {
    month,
    plan: space.plan,
    quota: monthlyEventQuota(space.plan),
    accepted: row?.accepted ?? 0,
    refused: row?.refused ?? 0,
    resetsAt: startOfNextMonth(at).toISOString(),
  };
}
