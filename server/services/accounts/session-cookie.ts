import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../../context.ts';

/** Name of the session cookie. */
export const SESSION_COOKIE = 'sg_session';

const localHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function secure(c: Context<AppEnv>): boolean {
  const setting = c.var.deps.config.cookieSecure;
  if (setting !== 'auto') return setting;
  return !localHosts.has(new URL(c.req.url).hostname);
}

/**
 * Sets the httpOnly, SameSite=Lax session cookie (Secure outside localhost). Its lifetime is sent as Max-Age, the
 * seconds from the session's start to its end by the server's clock, not as an Expires date: the browser then counts
 * from its own now, so a browser whose clock is off (or a server on a test clock) keeps the session exactly as long.
 */
export function setSessionCookie(c: Context<AppEnv>, token: string, startedAt: Date, expires: Date): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: secure(c),
    path: '/',
    maxAge: Math.max(0, Math.floor((expires.getTime() - startedAt.getTime()) / 1000)),
  });
}

/** Removes the session cookie. */
export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: secure(c), httpOnly: true, sameSite: 'Lax' });
}
