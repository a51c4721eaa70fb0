/**
 * Every mail the product sends, in one place: the subject, the words and the link of each. A link's path is
 * the screen that takes its token (server/README.md, "Links in mail"). A new area adds its mails here.
 */
import type { WebhookPayload } from '../../../contract/webhook.ts';
import type { Mail } from './mailer.ts';

/** An address and the name to greet it with. */
type Recipient = { email: string; name: string };

/** The activation link of a new account (24 h); `resent` when the owner asked for a new one. */
export function activationMail(publicUrl: string, to: Recipient, token: string, resent = false): Mail {
  const ignore = resent ? '' : '\nIf you did not register, ignore this message.\n';
  return {
    to: to.email,
    subject: 'Activate your Spaceguard account',
    text: `Hello ${to.name},\n\nActivate your account within 24 hours:\n${publicUrl}/auth/activation/${token}\n${ignore}`,
  };
}

/** To the owner of an address someone tried to register again: no link, so accounts cannot be enumerated. */
export function alreadyRegisteredMail(publicUrl: string, email: string): Mail {
  return {
    to: email,
    subject: 'Someone tried to create a Spaceguard account with your address',
    text: `Hello,\n\nSomeone tried to create a Spaceguard account with this address, which already has one.\nIf it was you, sign in at ${publicUrl}/auth/login or choose a new password at ${publicUrl}/auth/forgot.\nIf it was not you, ignore this message.\n`,
  };
}

/** The password reset link (1 h). */
export function resetMail(publicUrl: string, to: Recipient, token: string): Mail {
  return {
    to: to.email,
    subject: 'Reset your Spaceguard password',
    text: `Hello ${to.name},\n\nChoose a new password within one hour:\n${publicUrl}/auth/reset/${token}\n\nIf you did not ask for this, ignore this message.\n`,
  };
}

/** The confirmation link of a new address (24 h), sent to that new address. */
export function emailChangeMail(publicUrl: string, to: Recipient, token: string): Mail {
  return {
    to: to.email,
    subject: 'Confirm your new Spaceguard address',
    text: `Hello ${to.name},\n\nConfirm this address for your Spaceguard account within 24 hours:\n${publicUrl}/profile?confirm-email=${token}\n`,
  };
}

/** An invitation to a space with a role (7 days); the invitee may have no account yet. */
export function invitationMail(
  publicUrl: string,
  invite: { email: string; inviter: string | null; spaceName: string; role: string },
  token: string,
): Mail {
  return {
    to: invite.email,
    subject: `You are invited to ${invite.spaceName} on Spaceguard`,
    text: `${invite.inviter ?? 'Someone'} invited you to the space "${invite.spaceName}" as ${invite.role}.\n\nAccept within 7 days (register first if you have no account, with this address):\n${publicUrl}/spaces?invitation=${token}\n`,
  };
}

const happened: Record<WebhookPayload['type'], string> = {
  'alert.opened': 'Alert opened',
  'alert.updated': 'Alert still firing',
  'alert.resolved': 'Alert resolved',
  test: 'Test notification',
};

/**
 * An alert notification to one address, the same facts as the webhook body, for people: subject with what happened
 * and the title, body with the alert's facts and its link.
 */
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
