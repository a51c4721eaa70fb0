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
    });
    await next();
    c.header('X-Request-Id', requestId);
    deps.log({
      level: c.res.status >= 500 ? 'error' : 'info',
      msg: 'request',
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      ip: c.var.ip,
      userId: c.var.user?.id ?? null,
    });
  });
}
