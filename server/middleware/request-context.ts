import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';
import type { AppDeps } from '../deps.ts';

/** The client address: X-Forwarded-For when the proxy is trusted, else the socket's peer. */
export function clientIp(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return c.env?.incoming?.socket.remoteAddress ?? 'unknown';
}

/** Paths that carry a secret (an ingest token, an invitation token) in a segment: logged with it masked. */
const secretSegments = /^(\/api\/(?:ingest|invitations))\/([^/]+)/;

/** The path as it may be written to a log: secret tokens in it are reduced to their first characters. */
export function loggablePath(path: string): string {
  return path.replace(secretSegments, (_, prefix: string, token: string) => `${prefix}/${token.slice(0, 8)}…`);
}

/** Puts the dependencies and request id on the context and logs one JSON line per request. */
export function requestContext(deps: AppDeps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    const requestId = randomUUID();
    c.set('deps', deps);
    c.set('requestId', requestId);
    c.set('ip', clientIp(c, deps.config.trustProxy));
    c.set('user', null);
    c.set('session', null);
    c.set('actor', {
      id: null,
      name: null,
      ip: c.var.ip,
      userAgent: c.req.header('user-agent')?.slice(0, 500) ?? null,
      at: deps.now(),
    });
    await next();
    c.header('X-Request-Id', requestId);
    deps.log({
      level: c.res.status >= 500 ? 'error' : 'info',
      msg: 'request',
      requestId,
      method: c.req.method,
      path: loggablePath(c.req.path),
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      ip: c.var.ip,
      userId: c.var.user?.id ?? null,
    });
  });
}
