import type { Executor } from '../../db/database.ts';
import { activity } from '../../db/schema/activity.ts';

/**
 * Who is acting, from where, and when: taken from the request (`at` is the server clock's time when the request
 * arrived), or made by a background job with the job's clock.
 */
export type Actor = { id: string | null; name: string | null; ip: string | null; userAgent: string | null; at: Date };

/** What happened, to what, in which space (none for account events), and the change worth keeping. */
export type ActivityInput = {
  spaceId?: string | null;
  action: string;
  objectType: string;
  objectId?: string | null;
  change?: unknown;
};

/** Writes one audit record; call it with the transaction that makes the change. */
export async function recordActivity(tx: Executor, actor: Actor, input: ActivityInput): Promise<void> {
  await tx.insert(activity).values({
    spaceId: input.spaceId ?? null,
    actorId: actor.id,
    actorName: actor.name,
    action: input.action,
    objectType: input.objectType,
    objectId: input.objectId ?? null,
    ip: actor.ip,
    userAgent: actor.userAgent,
    change: input.change ?? null,
    // The server clock's time (millisecond precision, as in the list cursors).
    createdAt: actor.at,
  });
}
