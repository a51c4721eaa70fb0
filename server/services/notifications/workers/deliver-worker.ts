/**
 * The `alerts.deliver` job: sends one stored delivery (a webhook POST, or a mail per address) and records every
 * attempt; a failed attempt throws so the queue retries it with backoff, and the last one marks the delivery failed.
 */
import { eq, sql } from 'drizzle-orm';
import type { WebhookPayload } from '../../../../contract/webhook.ts';
import type { Db } from '../../../db/database.ts';
import { alertRules, alerts } from '../../../db/schema/alerts.ts';
import { alertDeliveries, type DeliveryAttemptRecord, type DeliveryRow } from '../../../db/schema/notifications.ts';
import { DiscardJob, defineWorker } from '../../jobs/worker.ts';
import { sendAlertMails } from '../mail-channel.ts';
import { payloadBody } from '../payload.ts';
import { type PostOutcome, postWebhook } from '../post.ts';
import { webhookHeaders } from '../sign.ts';
import { addressesOf } from '../targets.ts';

/** The job's arguments: the delivery to send. */
export type DeliverArgs = { deliveryId: string };

/** Waits after failed attempts 1 to 7: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h (about 4 h 40 min in all). */
export const deliveryBackoffMs = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000] as const;

/** The wait after `attempt` failed, plus up to 10 % of jitter so receivers that come back are not hit at once. */
export function deliveryBackoff(attempt: number): number {
  const base = deliveryBackoffMs[Math.min(attempt, deliveryBackoffMs.length) - 1] ?? deliveryBackoffMs[0];
  return Math.round(base * (1 + Math.random() * 0.1));
}

/** Adds one attempt to the delivery's log and sets where it stands. */
async function recordAttempt(
  db: Db,
  delivery: DeliveryRow,
  entry: DeliveryAttemptRecord,
  status: DeliveryRow['status'],
): Promise<void> {
  await db
    .update(alertDeliveries)
    .set({
      attempts: sql`${alertDeliveries.attempts} || ${JSON.stringify([entry])}::jsonb`,
      attemptCount: entry.attempt,
      status,
      ...(status === 'delivered' ? { deliveredAt: new Date(entry.at) } : {}),
    })
    .where(eq(alertDeliveries.id, delivery.id));
}

/** The webhook channel's secret as the rule holds it now, or null when the rule or that URL is gone. */
async function currentSecret(db: Db, delivery: DeliveryRow): Promise<string | null> {
  if (!delivery.ruleId) return null;
  const [rule] = await db
    .select({ channels: alertRules.channels })
    .from(alertRules)
    .where(eq(alertRules.id, delivery.ruleId));
  const channel = rule?.channels.find((c) => c.kind === 'webhook' && c.url === delivery.target);
  return channel?.kind === 'webhook' ? channel.secret : null;
}

/** The rule's name for a mail: the alert keeps it even after the rule is deleted. */
async function ruleNameOf(db: Db, delivery: DeliveryRow): Promise<string> {
  if (delivery.alertId) {
    const [alert] = await db.select({ name: alerts.ruleName }).from(alerts).where(eq(alerts.id, delivery.alertId));
    if (alert) return alert.name;
  }
  if (delivery.ruleId) {
    const [rule] = await db
      .select({ name: alertRules.name })
      .from(alertRules)
      .where(eq(alertRules.id, delivery.ruleId));
    if (rule) return rule.name;
  }
  return '(deleted rule)';
}

/** Sends deliveries from the `notifications` queue, so slow receivers never hold up other background work. */
export const deliverWorker = defineWorker<DeliverArgs>({
  kind: 'alerts.deliver',
  queue: 'notifications',
  maxAttempts: deliveryBackoffMs.length + 1,
  backoff: deliveryBackoff,
  timeoutMs: 15_000,
  async perform({ deliveryId }, ctx) {
    const [delivery] = await ctx.db.select().from(alertDeliveries).where(eq(alertDeliveries.id, deliveryId));
    if (!delivery) throw new DiscardJob(`delivery ${deliveryId} no longer exists (its alert or space was deleted)`);
    // Already done (a retry of a job whose end was not recorded): never send twice.
    if (delivery.status !== 'pending') return;
    const attempt = ctx.job.attempt;
    const last = attempt >= ctx.job.maxAttempts;
    const at = ctx.now();
    const started = performance.now();
    let outcome: Omit<PostOutcome, 'durationMs'> & { durationMs?: number };
    let body: string;
    try {
      body = payloadBody(delivery.payload);
    } catch {
      await recordAttempt(
        ctx.db,
        delivery,
        entryOf(attempt, at, 0, 'The stored body is not a webhook payload'),
        'failed',
      );
      throw new DiscardJob(`delivery ${deliveryId}: the stored body is not a webhook payload`);
    }
    if (delivery.channel === 'webhook') {
      const secret = await currentSecret(ctx.db, delivery);
      if (secret === null) {
        const message = 'The rule or this webhook channel was removed: not sent';
        await recordAttempt(ctx.db, delivery, entryOf(attempt, at, 0, message), 'failed');
        throw new DiscardJob(`delivery ${deliveryId}: ${message}`);
      }
      outcome = await postWebhook({
        url: delivery.target,
        body,
        headers: webhookHeaders({ secret, deliveryId, body, now: at }),
        config: ctx.deps.config,
        signal: ctx.signal,
      });
    } else {
      const payload = JSON.parse(body) as WebhookPayload;
      outcome = await sendAlertMails(
        ctx.deps,
        addressesOf(delivery.target),
        payload,
        await ruleNameOf(ctx.db, delivery),
      );
    }
    const durationMs = outcome.durationMs ?? Math.round(performance.now() - started);
    const entry: DeliveryAttemptRecord = {
      attempt,
      at: at.toISOString(),
      statusCode: outcome.statusCode,
      error: outcome.error,
      durationMs,
    };
    await recordAttempt(ctx.db, delivery, entry, outcome.ok ? 'delivered' : last ? 'failed' : 'pending');
    if (!outcome.ok) throw new Error(`delivery ${deliveryId}, attempt ${attempt}: ${outcome.message}`);
  },
});

/** An attempt that ended before anything was sent. */
function entryOf(attempt: number, at: Date, durationMs: number, error: string): DeliveryAttemptRecord {
  return { attempt, at: at.toISOString(), statusCode: null, error, durationMs };
}
