import { and, eq, gt, isNotNull, isNull, or } from 'drizzle-orm';
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';
import { apiTokens } from '../db/schema/api-tokens.ts';
import { sessions } from '../db/schema/sessions.ts';
import { users } from '../db/schema/users.ts';
import { ApiError } from '../errors.ts';
import { SESSION_COOKIE } from '../services/accounts/session-cookie.ts';
import { hashToken } from '../services/shared/tokens.ts';

const touchEveryMs = 5 * 60 * 1000;

/** Resolves the caller from `Authorization: Bearer <API token>` or the session cookie. */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const { db, now } = c.var.deps;
  const at = now();
  const authorization = c.req.header('authorization');
  if (authorization) {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    if (!token) throw new ApiError(401, 'invalid_token', 'Use `Authorization: Bearer <token>`.');
    const [row] = await db
      .select({ user: users, token: apiTokens })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(
        and(
          eq(apiTokens.tokenHash, hashToken(token)),
          isNotNull(users.activatedAt),
          or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, at)),
        ),
      );
    if (!row) throw new ApiError(401, 'invalid_token', 'This API token is unknown, revoked or expired.');
    if (!row.token.lastUsedAt || at.getTime() - row.token.lastUsedAt.getTime() > touchEveryMs) {
      await db.update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, row.token.id));
    }
    c.set('user', row.user);
  } else {
    const cookie = getCookie(c, SESSION_COOKIE);
    if (cookie) {
      const [row] = await db
        .select({ user: users, session: sessions })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.tokenHash, hashToken(cookie)), gt(sessions.expiresAt, at)));
      if (row) {
        if (at.getTime() - row.session.lastSeenAt.getTime() > touchEveryMs) {
          await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, row.session.id));
        }
        c.set('user', row.user);
        c.set('session', row.session);
      }
    }
  }
  const user = c.var.user;
  if (user) c.set('actor', { ...c.var.actor, id: user.id, name: user.name });
  await next();
});
