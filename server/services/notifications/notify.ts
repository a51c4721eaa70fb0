/**
 * Notifying an alert's channels: in the caller's transaction, one stored delivery per channel of the
 * rule and one queued job to send it, so a notification exists if and only if the change that wants it commits,
 * and a restart loses none. Nothing is sent here: a slow receiver never slows ingest or the API.
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '../../db/database.ts';
import type { AlertRow, AlertRuleRow } from '../../db/schema/alerts.ts';
import { alertDeliveries } from '../../db/schema/notifications.ts';
import { enqueue } from '../jobs/enqueue.ts';
import { webhookPayload } from './payload.ts';
import { channelTarget } from './targets.ts';
import { deliverWorker } from './workers/deliver-worker.ts';

/** Queues the alert's notification to each channel of its rule; answers how many deliveries were queued. */
export async function notifyAlert(
  tx: Executor,
  input: {
    alert: AlertRow;
    rule: AlertRuleRow;
    space: { id: string; name: string };
    type: 'alert.opened' | 'alert.updated' | 'alert.resolved';
    publicUrl: string;
    /** The caller's clock: the deliveries are due from then. */
    now: Date;
  },
): Promise<number> {
  const { alert, rule, space } = input;
  for (const channel of rule.channels) {
    const deliveryId = randomUUID();
    const payload = webhookPayload({ deliveryId, type: input.type, alert, space, publicUrl: input.publicUrl });
    await tx.insert(alertDeliveries).values({
      id: deliveryId,
      spaceId: space.id,
      alertId: alert.id,
      ruleId: rule.id,
      type: input.type,
      channel: channel.kind,
      target: channelTarget(channel),
      payload,
      createdAt: input.now,
    });
    await enqueue(
      tx,
      deliverWorker,
      { deliveryId },
      {
        now: input.now,
        uniqueKey: `alerts.deliver:${deliveryId}`,
        spaceId: space.id,
      },
    );
  }
  return rule.channels.length;
}
