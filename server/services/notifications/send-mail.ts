/** Sending an alert notification by email: one mail per address through the mailer (SMTP, or the outbox). */
import type { WebhookPayload } from '../../../contract/webhook.ts';
import type { AppDeps } from '../../deps.ts';
import { alertMail } from './alert-mail.ts';
import type { PostOutcome } from './post.ts';

/** Sends one mail per address; the outcome, in the delivery log's words, names the addresses that failed. */
export async function sendAlertMails(
  deps: Pick<AppDeps, 'mailer'>,
  addresses: string[],
  payload: WebhookPayload,
  ruleName: string,
): Promise<Omit<PostOutcome, 'durationMs'>> {
  const failed: string[] = [];
  for (const to of addresses) {
    try {
      await deps.mailer.send(alertMail(to, payload, ruleName));
    } catch (error) {
      failed.push(`${to} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  if (failed.length === 0) {
    const n = addresses.length;
    return { ok: true, statusCode: null, message: `Sent to ${n} address${n === 1 ? '' : 'es'}`, error: null };
  }
  const message = `Could not send to ${failed.join(', ')}`;
  return { ok: false, statusCode: null, message, error: message };
}
