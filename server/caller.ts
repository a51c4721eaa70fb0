import type { Context } from 'hono';
import type { Role } from '../contract/constants/roles.ts';
import type { AppEnv } from './context.ts';
import type { SessionRow } from './db/schema/sessions.ts';
import type { SpaceRow } from './db/schema/spaces.ts';
import type { User } from './db/schema/users.ts';
import type { AppDeps } from './deps.ts';
import type { Actor } from './services/activity/record.ts';

/** Whoever made a request, as a service sees it: the dependencies, who acts (for the audit log), from where (for limits). */
export type Caller = { deps: AppDeps; actor: Actor; ip: string; session: SessionRow | null };

/** A signed-in caller: what `route('user')` guarantees. */
export type UserCaller = Caller & { user: User };

/** A member acting in one space, with the role the access middleware resolved: what `route(role)` guarantees. */
export type SpaceCaller = UserCaller & { space: SpaceRow; role: Role };

/** Any caller, signed in or not: for `route('anonymous')` handlers. */
export function caller(c: Context<AppEnv>): Caller {
  return { deps: c.var.deps, actor: c.var.actor, ip: c.var.ip, session: c.var.session };
}

/**
 * The signed-in caller of a `route('user')` (or role) handler. The middleware has already answered 401 for
 * anyone else, so a missing user here is a wiring mistake (a handler declared with the wrong access), not a 401.
 */
export function signedIn(c: Context<AppEnv>): UserCaller {
  const user = c.var.user;
  if (!user) throw new Error(`${c.req.method} ${c.req.routePath}: signedIn() needs route('user') or a role`);
  return { ...caller(c), user };
}

/** The member calling a `route(role)` handler, with its space and role (set by the access middleware). */
export function inSpace(c: Context<AppEnv>): SpaceCaller {
  const space = c.var.space;
  if (!space) throw new Error(`${c.req.method} ${c.req.routePath}: inSpace() needs route(role) on a /{spaceId} path`);
  return { ...signedIn(c), space, role: c.var.role };
}
