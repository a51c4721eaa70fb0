/** An account's life by mail: register, activate (or ask for a new link), reset the password, confirm a new address. */
import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  Accepted,
  ConfirmEmailBody,
  ForgotBody,
  RegisterBody,
  ResendActivationBody,
  ResetBody,
} from '../../../contract/auth.ts';
import type { Caller } from '../../caller.ts';
import { users } from '../../db/schema/users.ts';
import { ApiError } from '../../errors.ts';
import { recordActivity } from '../activity/record.ts';
import { deliver } from '../mail/mailer.ts';
import { activationMail, alreadyRegisteredMail, resetMail } from '../mail/templates.ts';
import { isUniqueViolation } from '../shared/db-errors.ts';
import { checkCaptcha } from './captcha.ts';
import { consumeToken, findToken, issueToken, usableToken } from './one-time-tokens.ts';
import { hashPassword } from './passwords.ts';
import { clearAccountHits, clearHits, enforce, guessLimits, hitAll, refuseWhenSpent } from './rate-limit.ts';
import { endSessions } from './sessions.ts';

type Answer = z.infer<typeof Accepted>;

/** The answer of every call that may mail an address, whether or not it has an account. */
const sameAnswer: Answer = { ok: true, message: 'If an account exists for this address, we have sent it a link.' };

/** Mail-sending calls are limited per IP and per address, so nobody can flood an inbox. */
async function limitMail(from: Caller, email: string): Promise<void> {
  const { db, config, now } = from.deps;
  const { perIp, perAddress, windowSeconds } = config.mail;
  const wait = await enforce(
    db,
    [
      { key: `mail:ip:${from.ip}`, limit: perIp },
      { key: `mail:address:${email}`, limit: perAddress },
    ],
    windowSeconds,
    now(),
  );
  if (wait !== null) {
    throw new ApiError(429, 'rate_limited', `Too many messages asked for; try again in ${Math.ceil(wait / 60)} min.`, {
      retryAfter: wait,
    });
  }
}

/**
 * Creates an account and mails its activation link. An address that already has an account gets the same
 * answer (no account enumeration) and a mail to its owner instead of a link.
 */
export async function register(from: Caller, input: z.infer<typeof RegisterBody>): Promise<Answer> {
  const { db, now, config } = from.deps;
  await checkCaptcha(from.deps.captcha, from.ip, input.captchaToken, 'register');
  const answer: Answer = { ok: true, message: 'Check your mail for the activation link.' };
  const alreadyRegistered = async () => {
    await deliver(from.deps, alreadyRegisteredMail(config.publicUrl, input.email));
    return answer;
  };
  await limitMail(from, input.email);
  // Hash before looking the address up, so both answers take the same time.
  const passwordHash = await hashPassword(input.password);
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, input.email));
  if (existing) return alreadyRegistered();
  let token: string;
  try {
    token = await db.transaction(async (tx) => {
      const at = now();
      const [user] = await tx
        .insert(users)
        .values({ name: input.name, email: input.email, passwordHash, createdAt: at, updatedAt: at })
        .returning();
      if (!user) throw new Error('insert returned nothing');
      await recordActivity(
        tx,
        { ...from.actor, id: user.id, name: user.name },
        {
          action: 'user.register',
          objectType: 'user',
          objectId: user.id,
          change: { name: user.name, email: user.email },
        },
      );
      return issueToken(tx, user.id, 'activation', now());
    });
  } catch (error) {
    if (isUniqueViolation(error)) return alreadyRegistered();
    throw error;
  }
  await deliver(from.deps, activationMail(config.publicUrl, input, token));
  return answer;
}

/** Activates an account with its mailed token (single use, 24 h). */
export async function activate(from: Caller, token: string): Promise<void> {
  const { db, now } = from.deps;
  await db.transaction(async (tx) => {
    const row = await consumeToken(tx, token, 'activation', now());
    const [user] = await tx
      .update(users)
      .set({ activatedAt: now(), updatedAt: now() })
      .where(eq(users.id, row.userId))
      .returning();
    await recordActivity(
      tx,
      { ...from.actor, id: row.userId, name: user?.name ?? null },
      { action: 'user.activate', objectType: 'user', objectId: row.userId },
    );
  });
}

/** Mails a new activation link to a not yet activated account; the same answer whatever the address. */
export async function resendActivation(from: Caller, input: z.infer<typeof ResendActivationBody>): Promise<Answer> {
  const { db, now, config } = from.deps;
  await checkCaptcha(from.deps.captcha, from.ip, input.captchaToken, 'register');
  await limitMail(from, input.email);
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, input.email), isNull(users.activatedAt)));
  if (user) {
    const token = await issueToken(db, user.id, 'activation', now());
    await deliver(from.deps, activationMail(config.publicUrl, user, token, true));
  }
  return sameAnswer;
}

/** Mails a password reset link (single use, 1 h); the same answer whatever the address. */
export async function requestPasswordReset(from: Caller, input: z.infer<typeof ForgotBody>): Promise<Answer> {
  const { db, now, config } = from.deps;
  await checkCaptcha(from.deps.captcha, from.ip, input.captchaToken, 'forgot');
  await limitMail(from, input.email);
  const [user] = await db.select().from(users).where(eq(users.email, input.email));
  if (user) {
    const token = await db.transaction(async (tx) => {
      await recordActivity(
        tx,
        { ...from.actor, id: null, name: null },
        { action: 'user.reset_requested', objectType: 'user', objectId: user.id },
      );
      return issueToken(tx, user.id, 'reset', now());
    });
    await deliver(from.deps, resetMail(config.publicUrl, user, token));
  }
  return sameAnswer;
}

/**
 * Sets a new password with the mailed token and ends every other session of the account. The token is checked
 * before the (slow) hash; failures count like failed sign-ins, against the address and, when the token names
 * one, the account.
 */
export async function resetPassword(from: Caller, input: z.infer<typeof ResetBody>): Promise<void> {
  const { db, now, config } = from.deps;
  const at = now();
  const { windowSeconds } = config.signIn;
  const found = await findToken(db, input.token, 'reset');
  const keys = guessLimits(config.signIn, 'reset', from.ip, found?.userId);
  await refuseWhenSpent(db, keys, windowSeconds, at, 'password reset attempts');
  try {
    usableToken(found, at);
  } catch (error) {
    await hitAll(db, keys, windowSeconds, at);
    throw error;
  }
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    const row = await consumeToken(tx, input.token, 'reset', now());
    const [user] = await tx.select().from(users).where(eq(users.id, row.userId));
    if (!user) throw new ApiError(404, 'token_invalid', 'This link is not valid.');
    // Proving control of the mailbox also activates a not-yet-activated account.
    await tx
      .update(users)
      .set({ passwordHash, activatedAt: user.activatedAt ?? now(), updatedAt: now() })
      .where(eq(users.id, user.id));
    await endSessions(tx, user.id, from.session?.userId === user.id ? from.session.id : null);
    await clearHits(tx, `login:account:${user.email}`);
    await clearAccountHits(tx, keys);
    await recordActivity(
      tx,
      { ...from.actor, id: user.id, name: user.name },
      { action: 'user.password_reset', objectType: 'user', objectId: user.id },
    );
  });
}

/** Moves an account to the new address its mailed token was issued for. */
export async function confirmEmail(from: Caller, input: z.infer<typeof ConfirmEmailBody>): Promise<void> {
  const { db, now } = from.deps;
  try {
    await db.transaction(async (tx) => {
      const row = await consumeToken(tx, input.token, 'email_change', now());
      const email = row.data?.email;
      if (!email) throw new ApiError(404, 'token_invalid', 'This link is not valid.');
      const [before] = await tx.select().from(users).where(eq(users.id, row.userId));
      await tx.update(users).set({ email, pendingEmail: null, updatedAt: now() }).where(eq(users.id, row.userId));
      await recordActivity(
        tx,
        { ...from.actor, id: row.userId, name: before?.name ?? null },
        {
          action: 'user.email_change',
          objectType: 'user',
          objectId: row.userId,
          change: { from: before?.email, to: email },
        },
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(409, 'email_taken', 'Another account now uses this address.');
    throw error;
  }
}
