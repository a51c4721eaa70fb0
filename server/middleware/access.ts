import { and, eq } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import { type Role, roleRank } from '../../contract/common.ts';
import type { AppEnv } from '../context.ts';
import { memberships } from '../db/schema/memberships.ts';
import { spaces } from '../db/schema/spaces.ts';
import { ApiError, notFound } from '../errors.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** 401 unless someone is signed in (session cookie or API token). */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
  await next();
});

/** The one authorisation check: resolves the space and the caller's role; non-members get 404. */
export function requireSpaceRole(least: Role) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const user = c.var.user;
    if (!user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
    const spaceId = c.req.param('spaceId') ?? '';
    if (!uuidPattern.test(spaceId)) throw notFound('space');
    const [row] = await c.var.deps.db
      .select({ space: spaces, role: memberships.role })
      .from(memberships)
      .innerJoin(spaces, eq(spaces.id, memberships.spaceId))
      .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, user.id)));
    if (!row) throw notFound('space');
    if (roleRank[row.role] < roleRank[least]) {
      throw new ApiError(403, 'forbidden', `This needs the ${least} role or higher; you are ${row.role}.`);
    }
    c.set('space', row.space);
    c.set('role', row.role);
    await next();
  });
}
