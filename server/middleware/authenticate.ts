import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { userOfApiToken } from '../services/accounts/api-tokens.ts';
import { SESSION_COOKIE } from '../services/accounts/session-cookie.ts';
import { sessionOf } from '../services/accounts/sessions.ts';

/** Paths whose `Authorization: Bearer` is a firewall token, which the connector's services check themselves. */
const connectorPaths = '/api/connector/';

/**
 * Resolves the caller from `Authorization: Bearer <API token>` or the session cookie. The connector's paths
 * carry a firewall token instead and never a user: they are left to the connector's services.
 */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.path.startsWith(connectorPaths)) return next();
  const { db, now } = c.var.deps;
  const at = now();
  const authorization = c.req.header('authorization');
  if (authorization) {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    if (!token) throw new ApiError(401, 'invalid_token', 'Use `Authorization: Bearer <token>`.');
    const user = await userOfApiToken(db, token, at);
    if (!user) throw new ApiError(401, 'invalid_token', 'This API token is unknown, revoked or expired.');
    c.set('user', user);
  } else {
    const cookie = getCookie(c, SESSION_COOKIE);
    const found = cookie ? await sessionOf(db, cookie, at) : null;
    if (found) {
      c.set('user', found.user);
      c.set('session', found.session);
    }
  }
  const user = c.var.user;
  if (user) c.set('actor', { ...c.var.actor, id: user.id, name: user.name });
  await next();
});
