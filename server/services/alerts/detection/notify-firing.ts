/**
 * Who hears of a firing: an alert that opened notifies its rule's channels (`alert.opened`); one that is still open,
 * not snoozed and firing again notifies `alert.updated` once its rule's re-notify interval has passed since the last
 * notification. Deliveries are enqueued in the caller's transaction (server/services/notifications/notify.ts).
 */
import { eq } from 'drizzle-orm';
import type { Executor } from '../../../db/database.ts';
import { type AlertRow, type AlertRuleRow, alerts } from '../../../db/schema/alerts.ts';
import { spaces } from '../../../db/schema/spaces.ts';
import type { AppDeps } from '../../../deps.ts';
import { notifyAlert } from '../../notifications/notify.ts';

/** The notification a change of an alert calls for. */
export type AlertNews = 'alert.opened' | 'alert.updated' | 'alert.resolved';

/** Enqueues the notifications of one alert's news to its rule's channels and notes when it was notified. */
export async function notifyNews(
  tx: Executor,
  deps: Pick<AppDeps, 'config'>,
  input: { alert: AlertRow; rule: AlertRuleRow; news: AlertNews; now: Date },
): Promise<void> {
  if (input.rule.channels.length === 0) return;
  const [space] = await tx
    .select({ id: spaces.id, name: spaces.name })
    .from(spaces)
    .where(eq(spaces.id, input.alert.spaceId));
  if (!space) return;
  await notifyAlert(tx, {
    alert: input.alert,
    rule: input.rule,
    space,
    type: input.news,
    publicUrl: deps.config.publicUrl,
    now: input.now,
  });
  await tx.update(alerts).set({ lastNotifiedAt: input.now }).where(eq(alerts.id, input.alert.id));
}

/** The news of a firing: opened, a re-notification that is due, or none. */
export function newsOfFiring(alert: AlertRow, rule: AlertRuleRow, opened: boolean, now: Date): AlertNews | null {
  if (opened) return 'alert.opened';
  if (alert.status !== 'open' || !rule.renotifyMinutes) return null;
  if (alert.snoozedUntil && alert.snoozedUntil > now) return null;
  const last = alert.lastNotifiedAt?.getTime() ?? 0;
  return now.getTime() - last >= rule.renotifyMinutes * 60_000 ? 'alert.updated' : null;
}
