/**
 * The rule editor's "Send test": a `test` notification to each channel of a stored rule, sent at once
 * (one attempt, the receiver's answer shown), each recorded as a delivery without an alert and the whole audited.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ChannelTestResult } from '../../../contract/notifications.ts';
import type { SpaceCaller } from '../../caller.ts';
import { alertRules, type StoredChannel } from '../../db/schema/alerts.ts';
import { alertDeliveries } from '../../db/schema/notifications.ts';
import { notFound } from '../../errors.ts';
import { recordActivity } from '../activity/record.ts';
import { sendAlertMails } from './mail-channel.ts';
import { alertsLink, payloadBody, webhookPayload } from './payload.ts';
import { postWebhook } from './post.ts';
import { webhookHeaders } from './sign.ts';
import { channelTarget } from './targets.ts';

type Result = z.infer<typeof ChannelTestResult>['results'][number];

/** Sends the test to every channel of the rule (all at once) and answers each channel's outcome in order. */
export async function sendTestNotifications(
  sc: SpaceCaller,
  ruleId: string,
): Promise<z.infer<typeof ChannelTestResult>> {
  const { db, config, now } = sc.deps;
  const [rule] = await db
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.id, ruleId), eq(alertRules.spaceId, sc.space.id)));
  if (!rule) throw notFound('alert rule');
  const space = { id: sc.space.id, name: sc.space.name };
  const at = now();

  // A made-up alert of the rule, linking to the space's alerts: a receiver can tell it by `type: "test"`.
  const send = async (channel: StoredChannel) => {
    const deliveryId = randomUUID();
    const payload = webhookPayload({
      deliveryId,
      type: 'test',
      alert: {
        id: randomUUID(),
        title: `Test notification of the rule “${rule.name}”`,
        severity: rule.severity,
        status: 'open',
        count: 0,
        ruleId: rule.id,
        groupKey: '',
      },
      space,
      publicUrl: config.publicUrl,
      url: alertsLink(config.publicUrl, space.id),
    });
    const body = payloadBody(payload);
    const started = performance.now();
    const outcome =
      channel.kind === 'webhook'
        ? await postWebhook({
            url: channel.url,
            body,
            headers: webhookHeaders({ secret: channel.secret, deliveryId, body, now: at }),
            config,
          })
        : await sendAlertMails(sc.deps, channel.to, payload, rule.name);
    const durationMs = Math.round(performance.now() - started);
    return { channel, deliveryId, payload, outcome, durationMs };
  };
  const sent = await Promise.all(rule.channels.map(send));

  const results: Result[] = sent.map(({ channel, outcome }) => ({
    channel: channel.kind,
    target: channelTarget(channel),
    ok: outcome.ok,
    statusCode: outcome.statusCode,
    message: outcome.message,
  }));
  await db.transaction(async (tx) => {
    for (const { channel, deliveryId, payload, outcome, durationMs } of sent) {
      await tx.insert(alertDeliveries).values({
        id: deliveryId,
        spaceId: space.id,
        alertId: null,
        ruleId: rule.id,
        type: 'test',
        channel: channel.kind,
        target: channelTarget(channel),
        payload,
        status: outcome.ok ? 'delivered' : 'failed',
        attempts: [
          { attempt: 1, at: at.toISOString(), statusCode: outcome.statusCode, error: outcome.error, durationMs },
        ],
        attemptCount: 1,
        deliveredAt: outcome.ok ? at : null,
        createdAt: at,
      });
    }
    await recordActivity(tx, sc.actor, {
      spaceId: space.id,
      action: 'alert_rule.test',
      objectType: 'alert_rule',
      objectId: rule.id,
      change: { results: results.map(({ channel, target, ok, statusCode }) => ({ channel, target, ok, statusCode })) },
    });
  });
  return { results };
}
