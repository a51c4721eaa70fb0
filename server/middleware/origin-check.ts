import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { SESSION_COOKIE } from '../services/accounts/session-cookie.ts';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence: a state-changing call that is not authenticated by a bearer token must come from an
 * allowed Origin (or the API's own); with a session cookie, an Origin is required at all.
 */
export const originCheck = createMiddleware<AppEnv>(async (c, next) => {
  if (safeMethods.has(c.req.method) || c.req.header('authorization')) return next();
  const origin = c.req.header('origin');
  const allowed = c.var.deps.config.allowedOrigins;
  if (origin) {
    if (origin !== new URL(c.req.url).origin && !allowed.includes(origin)) {
      throw new ApiError(403, 'foreign_origin', 'This request came from a site that may not change anything here.');
    }
  } else if (getCookie(c, SESSION_COOKIE)) {
    throw new ApiError(
      403,
      'origin_required',
      'State-changing calls with a session cookie must send an Origin header.',
    );
  }
  return next();
});
