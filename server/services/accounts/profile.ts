/** The signed-in user's own account: how the API shows it, and changes to name, colour mode, address, password. */
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Me, UpdateMeBody } from '../../../contract/me.ts';
import type { UserCaller } from '../../caller.ts';
import { type User, users } from '../../db/schema/users.ts';
import { ApiError, fieldError, notFound } from '../../errors.ts';
import { recordActivity } from '../activity/record.ts';
import { deliver } from '../mail/mailer.ts';
import { emailChangeMail } from '../mail/templates.ts';
import { issueToken } from './one-time-tokens.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { clearAccountHits, guessLimits, hitAll, refuseWhenSpent } from './rate-limit.ts';
import { endSessions } from './sessions.ts';

/** A user as the API shows it to that user. */
export function meView(user: User): Me {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    pendingEmail: user.pendingEmail,
    colorMode: user.colorMode,
    lastSpaceId: user.lastSpaceId,
    createdAt: user.createdAt.toISOString(),
  };
}

/** Checks the current password; wrong ones are limited like failed sign-ins (a stolen session must not guess it). */
async function checkCurrentPassword(me: UserCaller, password: string): Promise<void> {
  const { db, now, config } = me.deps;
  const at = now();
  const { windowSeconds } = config.signIn;
  const keys = guessLimits(config.signIn, 'current-password', me.ip, me.user.id);
  await refuseWhenSpent(db, keys, windowSeconds, at, 'wrong current passwords');
  if (!(await verifyPassword(me.user.passwordHash, password))) {
    await hitAll(db, keys, windowSeconds, at);
    throw fieldError('currentPassword', 'The current password is wrong.', 'invalid_credentials');
  }
  await clearAccountHits(db, keys);
}

/**
 * Applies profile changes. A new address or password needs the current password; a new address is only
 * pending until confirmed by mail; a new password ends every other session.
 */
export async function updateProfile(me: UserCaller, input: z.infer<typeof UpdateMeBody>): Promise<Me> {
  const { user } = me;
  const { db, now, config } = me.deps;
  const emailChange = input.email !== undefined && input.email !== user.email ? input.email : undefined;
  if (emailChange || input.newPassword) {
    if (!input.currentPassword) throw fieldError('currentPassword', 'Enter your current password to change this.');
    await checkCurrentPassword(me, input.currentPassword);
  }
  if (emailChange) {
    const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, emailChange));
    if (taken) {
      throw new ApiError(409, 'email_taken', 'Another account uses this address.', {
        fields: { email: 'Another account uses this address.' },
      });
    }
  }
  const passwordHash = input.newPassword ? await hashPassword(input.newPassword) : undefined;
  const { updated, emailToken } = await db.transaction(async (tx) => {
    const changes: Partial<typeof users.$inferInsert> = { updatedAt: now() };
    const change: Record<string, unknown> = {};
    if (input.name !== undefined && input.name !== user.name) {
      changes.name = input.name;
      change.name = { from: user.name, to: input.name };
    }
    if (input.colorMode !== undefined && input.colorMode !== user.colorMode) {
      changes.colorMode = input.colorMode;
      change.colorMode = { from: user.colorMode, to: input.colorMode };
    }
    if (passwordHash) {
      changes.passwordHash = passwordHash;
      change.password = 'changed';
      await endSessions(tx, user.id, me.session?.id ?? null);
    }
    let token: string | undefined;
    if (emailChange) {
      changes.pendingEmail = emailChange;
      change.pendingEmail = emailChange;
      token = await issueToken(tx, user.id, 'email_change', now(), { email: emailChange });
    }
    const [row] = await tx.update(users).set(changes).where(eq(users.id, user.id)).returning();
    if (!row) throw notFound('user');
    if (Object.keys(change).length > 0) {
      await recordActivity(tx, me.actor, { action: 'user.update', objectType: 'user', objectId: user.id, change });
    }
    return { updated: row, emailToken: token };
  });
  if (emailToken && emailChange) {
    await deliver(me.deps, emailChangeMail(config.publicUrl, { email: emailChange, name: updated.name }, emailToken));
  }
  return meView(updated);
}
