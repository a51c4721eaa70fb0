import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';
import { SESSION_COOKIE } from '../services/accounts/session-cookie.ts';

/** Nothing an API answer says may run, load or be framed, even if a browser were made to render it. */
export const apiPolicy = "default-src 'none'; frame-ancestors 'none'";

/** The reference page (`/api/docs`) is HTML with one inline style sheet and links; nothing else is allowed. */
export const docsPolicy = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers on every API answer, errors and streams included: `nosniff`, a Content-Security-Policy, and
 * `Cache-Control: no-store` when the request carried credentials or the answer sets a cookie (an answer meant
 * for one account must never sit in a shared or browser cache). Mounted first, so it sees every answer.
 */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Content-Security-Policy', c.req.path === '/api/docs' ? docsPolicy : apiPolicy);
  const credentials =
    Boolean(c.var.user) ||
    c.req.header('authorization') !== undefined ||
    getCookie(c, SESSION_COOKIE) !== undefined ||
    c.res.headers.has('set-cookie');
  if (credentials) c.header('Cache-Control', 'no-store');
});
