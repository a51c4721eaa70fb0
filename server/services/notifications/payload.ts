/** The webhook body (docs/product.md §5, docs/webhooks.md), built once per delivery and stored so every retry sends it. */
import type { NotificationType } from '../../../contract/constants/alerts.ts';
import { WebhookPayload } from '../../../contract/webhook.ts';
import type { AlertRow } from '../../db/schema/alerts.ts';

/** What a notification tells about its alert. */
export type PayloadAlert = Pick<AlertRow, 'id' | 'title' | 'severity' | 'status' | 'count' | 'ruleId' | 'groupKey'>;

/** The link to a space's alerts in the console. */
export function alertsLink(publicUrl: string, spaceId: string): string {
  return `${publicUrl}/console/alert/${spaceId}`;
}

/** The link to an alert's screen in the console. */
export function alertLink(publicUrl: string, spaceId: string, alertId: string): string {
  return `${alertsLink(publicUrl, spaceId)}/${alertId}`;
}

/** The body of one delivery: its id, what happened, the alert as it is now and its space. */
export function webhookPayload(input: {
  deliveryId: string;
  type: NotificationType;
  alert: PayloadAlert;
  space: { id: string; name: string };
  publicUrl: string;
  /** The alert's link; a test, which has no alert, links to the space's alerts. */
  url?: string;
}): WebhookPayload {
  const { alert, space } = input;
  return {
    id: input.deliveryId,
    type: input.type,
    alert: {
      id: alert.id,
      title: alert.title,
      severity: alert.severity,
      status: alert.status,
      count: alert.count,
      ruleId: alert.ruleId,
      groupKey: alert.groupKey,
      url: input.url ?? alertLink(input.publicUrl, space.id, alert.id),
    },
    space: { id: space.id, name: space.name },
  };
}

/**
 * The bytes sent for a stored payload: read through the contract's schema so the keys come out in its order
 * (jsonb keeps its own), the same bytes on every retry. Throws on a payload that is not a webhook body.
 */
export function payloadBody(stored: unknown): string {
  return JSON.stringify(WebhookPayload.parse(stored));
}
