import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Role } from '../../contract/constants/roles.ts';
import { atLeast } from '../../contract/roles.ts';
import type { AppEnv } from '../context.ts';
import type { User } from '../db/schema/users.ts';
import { ApiError, notFound } from '../errors.ts';
import { membershipOf } from '../services/spaces/members.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The one authentication check: the signed-in user (session cookie or API token), else 401. */
export function userOf(c: Context<AppEnv>): User {
  if (!c.var.user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
  return c.var.user;
}

/** `route('user')`: 401 unless someone is signed in. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  userOf(c);
  await next();
});

/**
 * `route(role)`, the one authorisation check: 401, then the space and the caller's role; non-members get 404. With
 * `hideBelow`, weaker roles get the same 404 as non-members (controls that do not exist for them: billing).
 */
export function requireSpaceRole(least: Role, hideBelow = false) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const user = userOf(c);
    const spaceId = c.req.param('spaceId') ?? '';
    if (!uuidPattern.test(spaceId)) throw notFound('space');
    const membership = await membershipOf(c.var.deps.db, spaceId, user.id);
    if (!membership) throw notFound('space');
    if (!atLeast(membership.role, least)) {
      if (hideBelow) throw notFound('space');
      throw new ApiError(403, 'forbidden', `This needs the ${least} role or higher; you are ${membership.role}.`);
    }
    c.set('space', membership.space);
    c.set('role', membership.role);
    await next();
  });
}
