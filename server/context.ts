import type { IncomingMessage } from 'node:http';
import type { Role } from '../contract/common.ts';
import type { SessionRow } from './db/schema/sessions.ts';
import type { SpaceRow } from './db/schema/spaces.ts';
import type { User } from './db/schema/users.ts';
import type { AppDeps } from './deps.ts';
import type { Actor } from './services/activity/record.ts';

/** Hono environment of every router: what the middlewares put on the context. */
export type AppEnv = {
  Bindings: { incoming?: IncomingMessage };
  Variables: {
    deps: AppDeps;
    requestId: string;
    ip: string;
    user: User | null;
    session: SessionRow | null;
    actor: Actor;
    /** Set by the space middleware on space paths. */
    space: SpaceRow;
    role: Role;
  };
};
