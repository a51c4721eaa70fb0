/** A rule's suppressions in force (listed on the rule) and their early removal. */
import type { TriageEntry } from '../../../../contract/triage.ts';
import type { SpaceCaller } from '../../../caller.ts';
import { recordActivity } from '../../activity/record.ts';
import { decisionsInForce, revokeDecision } from '../../triage/decisions.ts';
import { triageView } from '../../triage/record.ts';
import { SUPPRESSED } from '../detection/suppressions.ts';
import { ruleRowOf } from './rule-view.ts';

/** The rule's suppressions that are in force, newest first. */
export async function listSuppressions(sc: SpaceCaller, ruleId: string): Promise<{ items: TriageEntry[] }> {
  const rule = await ruleRowOf(sc.deps.db, sc.space.id, ruleId);
  const rows = await decisionsInForce(
    sc.deps.db,
    sc.space.id,
    { type: 'alert_rule', id: rule.id },
    SUPPRESSED,
    sc.deps.now(),
  );
  return { items: rows.map(triageView) };
}

/** Removes a suppression before it expires: the group alerts again. */
export async function removeSuppression(sc: SpaceCaller, ruleId: string, suppressionId: string): Promise<void> {
  await sc.deps.db.transaction(async (tx) => {
    const rule = await ruleRowOf(tx, sc.space.id, ruleId);
    const row = await revokeDecision(tx, {
      spaceId: sc.space.id,
      subject: { type: 'alert_rule', id: rule.id },
      id: suppressionId,
      by: sc.user.id,
      now: sc.deps.now(),
    });
    await recordActivity(tx, sc.actor, {
      spaceId: sc.space.id,
      action: 'alert_rule.unsuppress',
      objectType: 'alert_rule',
      objectId: rule.id,
      change: { suppressionId: row.id, groupKey: row.scope?.groupKey ?? '' },
    });
  });
}
