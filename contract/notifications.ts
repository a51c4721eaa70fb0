/**
 * Notifications of alerts (docs/product.md §5, docs/webhooks.md): the channels a rule notifies (email addresses, or a
 * signed webhook), the deliveries queued to them with each attempt, and the test a rule's channels can be sent.
 */
import { z } from 'zod';
import { Email } from './auth.ts';
import { Id, Timestamp } from './common.ts';
import { alertLimits, notificationTypes } from './constants/alerts.ts';

export const NotificationType = z.enum(notificationTypes).meta({ id: 'NotificationType' });

/**
 * A webhook address: http or https, no credentials in it. Whether its host may be reached (addresses that are not
 * globally reachable are refused unless WEBHOOK_ALLOWED_HOSTS lists them; loopback is allowed outside production) is
 * the server's check.
 */
export const WebhookUrl = z
  .string()
  .trim()
  .max(2_000, 'Use at most 2000 characters.')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, 'Use an http:// or https:// address without a user name or password in it.');

/** The secret webhook bodies are signed with: HMAC-SHA256, so at least 16 characters. */
export const WebhookSecret = z
  .string()
  .min(16, 'Use a secret of at least 16 characters.')
  .max(200, 'Use at most 200 characters.');

export const EmailChannel = z
  .object({
    kind: z.literal('email'),
    to: z
      .array(Email)
      .min(1, 'Add at least one address.')
      .max(alertLimits.emailsPerChannel, `Use at most ${alertLimits.emailsPerChannel} addresses.`),
  })
  .strict()
  .meta({ id: 'EmailChannel' });

/** A webhook channel as written: on an update, a channel without `secret` keeps the secret of the same URL. */
export const WebhookChannelInput = z
  .object({ kind: z.literal('webhook'), url: WebhookUrl, secret: WebhookSecret.optional() })
  .strict()
  .meta({ id: 'WebhookChannelInput' });

export const ChannelInput = z.discriminatedUnion('kind', [EmailChannel, WebhookChannelInput]);
export type ChannelInput = z.infer<typeof ChannelInput>;

/** A webhook channel as answered: the secret never leaves the server, only its last four characters. */
export const WebhookChannel = z
  .object({ kind: z.literal('webhook'), url: z.string(), secretHint: z.string() })
  .meta({ id: 'WebhookChannel' });
export const Channel = z.discriminatedUnion('kind', [EmailChannel, WebhookChannel]);
export type Channel = z.infer<typeof Channel>;

/** One try of one delivery. */
export const DeliveryAttempt = z.object({
  attempt: z.number().int(),
  at: Timestamp,
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});

/** A notification to one channel, retried from the queue until delivered or given up. */
export const Delivery = z
  .object({
    id: Id,
    alertId: Id.nullable(),
    ruleId: Id.nullable(),
    type: NotificationType,
    channel: z.enum(['email', 'webhook']),
    /** The webhook URL, or the addresses. */
    target: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.array(DeliveryAttempt),
    createdAt: Timestamp,
    deliveredAt: Timestamp.nullable(),
  })
  .meta({ id: 'Delivery' });
export type Delivery = z.infer<typeof Delivery>;

/** `POST .../alert-rules/{id}/test`: a test notification to each of the rule's channels, sent at once. */
export const ChannelTestResult = z
  .object({
    results: z.array(
      z.object({
        channel: z.enum(['email', 'webhook']),
        target: z.string(),
        ok: z.boolean(),
        statusCode: z.number().int().nullable(),
        message: z.string(),
      }),
    ),
  })
  .meta({ id: 'ChannelTestResult' });
