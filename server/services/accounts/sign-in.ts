/** Sign-in with its rate limits, and sign-out. */
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { LoginBody } from '../../../contract/auth.ts';
import type { Me } from '../../../contract/me.ts';
import type { Caller } from '../../caller.ts';
import { sessions } from '../../db/schema/sessions.ts';
import { users } from '../../db/schema/users.ts';
import { ApiError } from '../../errors.ts';
import { recordActivity } from '../activity/record.ts';
import { checkCaptcha } from './captcha.ts';
import { verifyPassword } from './passwords.ts';
import { meView } from './profile.ts';
import { clearAccountHits, guessLimits, hitAll, refuseWhenSpent } from './rate-limit.ts';
import { startSession } from './sessions.ts';

/** A started session: the user as the API shows it, and the cookie to set. */
export type SignedIn = { me: Me; secret: string; startedAt: Date; expiresAt: Date };

/**
 * Checks the credentials and starts a session. Failures count against the account from this address (so
 * guessing elsewhere never locks its owner out), against the account from everywhere with a higher ceiling
 * (against guessing spread over many addresses), and against the address over all accounts.
 */
export async function signIn(from: Caller, input: z.infer<typeof LoginBody>): Promise<SignedIn> {
  const { db, now, config } = from.deps;
  const at = now();
  const { windowSeconds } = config.signIn;
  const keys = guessLimits(config.signIn, 'login', from.ip, input.email);
  await refuseWhenSpent(db, keys, windowSeconds, at, 'sign-in attempts');
  await checkCaptcha(from.deps.captcha, from.ip, input.captchaToken, 'login');
  const [user] = await db.select().from(users).where(eq(users.email, input.email));
  const valid = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !valid) {
    await db.transaction(async (tx) => {
      await hitAll(tx, keys, windowSeconds, at);
      await recordActivity(
        tx,
        { ...from.actor, id: user?.id ?? null, name: user?.name ?? null },
        { action: 'user.login_failed', objectType: 'user', objectId: user?.id ?? null, change: { email: input.email } },
      );
    });
    throw new ApiError(401, 'invalid_credentials', 'Wrong email or password.', {
      fields: { password: 'Wrong email or password.' },
    });
  }
  if (!user.activatedAt) {
    throw new ApiError(403, 'not_activated', 'Activate your account first; we can mail you a new link.', {
      fields: { email: 'This account is not activated yet.' },
    });
  }
  const expiresAt = new Date(at.getTime() + config.sessionDays * 86_400_000);
  const secret = await db.transaction(async (tx) => {
    await clearAccountHits(tx, keys);
    const actor = { ...from.actor, id: user.id, name: user.name };
    const session = await startSession(tx, user, actor, at, expiresAt);
    await recordActivity(tx, actor, { action: 'user.login', objectType: 'session', objectId: session.id });
    return session.secret;
  });
  return { me: meView(user), secret, startedAt: at, expiresAt };
}

/** Ends the session making the request, when there is one. */
export async function signOut(from: Caller): Promise<void> {
  const session = from.session;
  if (!session) return;
  await from.deps.db.transaction(async (tx) => {
    await tx.delete(sessions).where(eq(sessions.id, session.id));
    await recordActivity(tx, from.actor, { action: 'user.logout', objectType: 'session', objectId: session.id });
  });
}
