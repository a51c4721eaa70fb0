/** Resolving an alert by Spaceguard itself (events came back, nothing new for the auto-resolve delay). */
import { eq } from 'drizzle-orm';
import type { Executor } from '../../../db/database.ts';
import { type AlertRow, type AlertRuleRow, alerts } from '../../../db/schema/alerts.ts';
import type { AppDeps } from '../../../deps.ts';
import { recordDecision, systemActor } from '../../triage/record.ts';
import { notifyNews } from './notify-firing.ts';

/** Resolves an alert with the system's reason, records it and notifies the rule's channels. */
export async function resolveBySystem(
  tx: Executor,
  deps: Pick<AppDeps, 'config'>,
  input: { alert: AlertRow; rule: AlertRuleRow | null; reason: string; now: Date },
): Promise<void> {
  const { alert, now } = input;
  const [resolved] = await tx
    .update(alerts)
    .set({ status: 'resolved', resolvedAt: now, snoozedUntil: null, updatedAt: now })
    .where(eq(alerts.id, alert.id))
    .returning();
  if (!resolved) return;
  await recordDecision(tx, {
    spaceId: alert.spaceId,
    subject: { type: 'alert', id: alert.id },
    decision: 'resolved',
    actor: systemActor,
    reason: input.reason,
    change: { status: { from: alert.status, to: 'resolved' } },
    at: now,
  });
  if (input.rule) await notifyNews(tx, deps, { alert: resolved, rule: input.rule, news: 'alert.resolved', now });
}
