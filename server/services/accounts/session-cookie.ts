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

/** Sets the httpOnly, SameSite=Lax session cookie (Secure outside localhost). */
export function setSessionCookie(c: Context<AppEnv>, token: string, expires: Date): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: secure(c),
    path: '/',
    expires,
  });
}

/** Removes the session cookie. */
export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: secure(c), httpOnly: true, sameSite: 'Lax' });
}
