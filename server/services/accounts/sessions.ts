/** Browser sessions: started by sign-in, resolved from the cookie on every request, listed and ended by their user. */
import { and, desc, eq, gt, lt, ne } from 'drizzle-orm';
import type { Session } from '../../../contract/me.ts';
import type { UserCaller } from '../../caller.ts';
import type { Db, Executor } from '../../db/database.ts';
import { type SessionRow, sessions } from '../../db/schema/sessions.ts';
import { type User, users } from '../../db/schema/users.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../activity/record.ts';
import { recordActivity } from '../activity/record.ts';
import { hashToken, randomToken } from '../shared/tokens.ts';

/** A session's (or an API token's) last use is written at most this often, not on every request. */
export const touchEveryMs = 5 * 60 * 1000;

/** The user and session behind a session cookie's secret, or null when it is unknown or expired. */
export async function sessionOf(db: Db, secret: string, at: Date): Promise<{ user: User; session: SessionRow } | null> {
  const [row] = await db
    .select({ user: users, session: sessions })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(secret)), gt(sessions.expiresAt, at)));
  if (!row) return null;
  if (at.getTime() - row.session.lastSeenAt.getTime() > touchEveryMs) {
    await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, row.session.id));
  }
  return row;
}

/** Starts a session for a user (dropping its expired ones); answers the cookie's secret and the session id. */
export async function startSession(
  tx: Executor,
  user: User,
  actor: Actor,
  at: Date,
  expiresAt: Date,
): Promise<{ secret: string; id: string | null }> {
  const secret = randomToken();
  // Housekeeping: this user's expired sessions go when a new one starts.
  await tx.delete(sessions).where(and(eq(sessions.userId, user.id), lt(sessions.expiresAt, at)));
  const [session] = await tx
    .insert(sessions)
    .values({
      userId: user.id,
      tokenHash: hashToken(secret),
      ip: actor.ip,
      userAgent: actor.userAgent,
      createdAt: at,
      lastSeenAt: at,
      expiresAt,
    })
    .returning({ id: sessions.id });
  return { secret, id: session?.id ?? null };
}

/** Ends every session of a user but `keep` (the one making the request, when it is theirs): a new password does this. */
export async function endSessions(tx: Executor, userId: string, keep: string | null): Promise<void> {
  await tx
    .delete(sessions)
    .where(keep ? and(eq(sessions.userId, userId), ne(sessions.id, keep)) : eq(sessions.userId, userId));
}

/** The caller's live sessions, newest first, marking the one making this request. */
export async function listSessions(me: UserCaller): Promise<{ items: Session[] }> {
  const rows = await me.deps.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, me.user.id), gt(sessions.expiresAt, me.deps.now())))
    .orderBy(desc(sessions.lastSeenAt));
  return {
    items: rows.map((s) => ({
      id: s.id,
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
      expiresAt: s.expiresAt.toISOString(),
      ip: s.ip,
      userAgent: s.userAgent,
      current: s.id === me.session?.id,
    })),
  };
}

/** Ends one of the caller's sessions (404 for anyone else's). */
export async function revokeSession(me: UserCaller, id: string): Promise<void> {
  await me.deps.db.transaction(async (tx) => {
    const gone = await tx
      .delete(sessions)
      .where(and(eq(sessions.id, id), eq(sessions.userId, me.user.id)))
      .returning({ id: sessions.id });
    if (gone.length === 0) throw notFound('session');
    await recordActivity(tx, me.actor, { action: 'session.revoke', objectType: 'session', objectId: id });
  });
}
