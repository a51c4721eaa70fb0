import nodemailer from 'nodemailer';
import type { Db } from '../../db/database.ts';
import { outbox } from '../../db/schema/outbox.ts';
import type { Logger } from '../shared/logger.ts';

/** One plain-text message; templates.ts writes every one the product sends. */
export type Mail = { to: string; subject: string; text: string };

/** Sends mail: over SMTP when configured, otherwise into the development outbox. */
export type Mailer = { kind: 'smtp' | 'outbox'; send(mail: Mail): Promise<void> };

/** What createMailer needs: where the outbox lives, how to log, and the SMTP settings when there are any. */
export type MailerOptions = {
  db: Db;
  log: Logger;
  /** The server's clock: when an outbox message was kept. */
  now: () => Date;
  smtpUrl?: string | undefined;
  from: string;
  /** In production the log never carries a message's text (its links hold single-use tokens). */
  production?: boolean;
};

/** Picks SMTP (nodemailer) when SMTP_URL is set, else the outbox table plus a log line with the links. */
export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      kind: 'smtp',
      async send(mail) {
        await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
        options.log({ level: 'info', msg: 'mail sent', to: mail.to, subject: mail.subject });
      },
    };
  }
  return {
    kind: 'outbox',
    async send(mail) {
      await options.db.insert(outbox).values({ ...mail, createdAt: options.now() });
      if (options.production) {
        options.log({
          level: 'warn',
          msg: 'SMTP_URL is not set: mail kept in the outbox table, not delivered',
          to: mail.to,
          subject: mail.subject,
        });
      } else {
        options.log({ level: 'info', msg: 'mail kept in development outbox', ...mail });
      }
    },
  };
}

/**
 * The one way the product sends a mail, after the change that asked for it is committed: a failed delivery is
 * logged and answered (null when sent, else why it failed), never undoing the change.
 */
export async function deliver(deps: { mailer: Mailer; log: Logger }, mail: Mail): Promise<string | null> {
  try {
    await deps.mailer.send(mail);
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    deps.log({ level: 'error', msg: 'mail delivery failed', to: mail.to, subject: mail.subject, error: String(error) });
    return reason;
  }
}
