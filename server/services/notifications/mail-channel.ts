/** The mail channel of an alert notification: one mail per address, written and sent by services/mail. */
import type { WebhookPayload } from '../../../contract/webhook.ts';
import type { AppDeps } from '../../deps.ts';
import { deliver } from '../mail/mailer.ts';
import { alertMail } from '../mail/templates.ts';
import type { PostOutcome } from './post.ts';

/** Sends one mail per address; the outcome, in the delivery log's words, names the addresses that failed. */
export async function sendAlertMails(
  deps: Pick<AppDeps, 'mailer' | 'log'>,
  addresses: string[],
  payload: WebhookPayload,
  ruleName: string,
): Promise<Omit<PostOutcome, 'durationMs'>> {
  const failed: string[] = [];
  for (const to of addresses) {
    const failure = await deliver(deps, alertMail(to, payload, ruleName));
    if (failure !== null) failed.push(`${to} (${failure})`);
  }
  if (failed.length === 0) {
    const n = addresses.length;
    return { ok: true, statusCode: null, message: `Sent to ${n} address${n === 1 ? '' : 'es'}`, error: null };
  }
  const message = `Could not send to ${failed.join(', ')}`;
  return { ok: false, statusCode: null, message, error: message };
}
