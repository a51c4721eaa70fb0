/** The plain-text mail of an alert notification: the same facts as the webhook body, for people. */
import type { WebhookPayload } from '../../../contract/webhook.ts';
import type { Mail } from '../mail/mailer.ts';

const happened: Record<WebhookPayload['type'], string> = {
  'alert.opened': 'Alert opened',
  'alert.updated': 'Alert still firing',
  'alert.resolved': 'Alert resolved',
  test: 'Test notification',
};

/** One mail to one address: subject with what happened and the title, body with the alert's facts and its link. */
export function alertMail(to: string, payload: WebhookPayload, ruleName: string): Mail {
  const { alert, space } = payload;
  const test =
    payload.type === 'test' ? 'This is a test from the alert rule’s “Send test” button: the channel works.\n\n' : '';
  const lines = [
    `Title:    ${alert.title}`,
    `Severity: ${alert.severity}`,
    `Status:   ${alert.status}`,
    `Count:    ${alert.count.toLocaleString('en')} matching event${alert.count === 1 ? '' : 's'}`,
    `Group:    ${alert.groupKey || '(none)'}`,
    `Rule:     ${ruleName}`,
    `Space:    ${space.name}`,
  ];
  return {
    to,
    subject: `[Spaceguard] ${happened[payload.type]}: ${alert.title} (${alert.severity})`,
    text: `${happened[payload.type]} in ${space.name}.\n\n${test}${lines.join('\n')}\n\nOpen it:\n${alert.url}\n`,
  };
}
