/**
 * The body a webhook channel receives (docs/webhooks.md), the one document a receiver integrates against.
 */
import { z } from 'zod';
import { AlertStatus } from './alerts.ts';
import { Id } from './common.ts';
import { Severity } from './events.ts';
import { NotificationType } from './notifications.ts';

/** The webhook body (docs/product.md §5): signed with `X-Spaceguard-Signature: sha256=<hex HMAC of "<timestamp>.<body>">`. */
export const WebhookPayload = z
  .object({
    id: z.string(),
    type: NotificationType,
    alert: z.object({
      id: z.string(),
      title: z.string(),
      severity: Severity,
      status: AlertStatus,
      count: z.number().int(),
      ruleId: z.string().nullable(),
      groupKey: z.string(),
      url: z.string(),
    }),
    space: z.object({ id: Id, name: z.string() }),
  })
  .meta({ id: 'WebhookPayload' });
export type WebhookPayload = z.infer<typeof WebhookPayload>;
