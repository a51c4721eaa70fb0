/** "Do not alert on this group for N days": suppressions are triage decisions on a rule, scoped to one group key. */
import type { Executor } from '../../../db/database.ts';
import { decisionsInForce } from '../../triage/decisions.ts';

/** The decision a suppression is recorded as. */
export const SUPPRESSED = 'suppressed';

/** The group keys of a rule that are suppressed at `now`. */
export async function suppressedGroups(db: Executor, spaceId: string, ruleId: string, now: Date): Promise<Set<string>> {
  const rows = await decisionsInForce(db, spaceId, { type: 'alert_rule', id: ruleId }, SUPPRESSED, now);
  return new Set(rows.map((row) => row.scope?.groupKey ?? ''));
}
