import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { type JobRow, jobs } from '../../db/schema/jobs.ts';
import type { Worker } from './worker.ts';

/** When and how one job is enqueued. */
export type EnqueueOptions = {
  /** The application's clock at the call (never the database's): the job's inserted_at, and its default start. */
  now: Date;
  /** Not run before this (default: `now`). */
  scheduledAt?: Date;
  /** At most one job per key that waits, runs or completed: enqueueing the key again answers that job. */
  uniqueKey?: string;
  spaceId?: string;
  /** Overrides the worker's. */
  maxAttempts?: number;
};

/** The row one job is inserted as: its times from the caller's clock. */
function jobRow<Args>(
  worker: Pick<Worker<Args>, 'kind' | 'queue' | 'maxAttempts'>,
  args: Args,
  options: EnqueueOptions,
) {
  return {
    queue: worker.queue,
    kind: worker.kind,
    args: args ?? {},
    maxAttempts: options.maxAttempts ?? worker.maxAttempts,
    insertedAt: options.now,
    scheduledAt: options.scheduledAt ?? options.now,
    ...(options.uniqueKey !== undefined ? { uniqueKey: options.uniqueKey } : {}),
    ...(options.spaceId ? { spaceId: options.spaceId } : {}),
  };
}

/** The key's live job, if any: the row the unique index holds for it. */
const liveWithKey = (key: string) => and(eq(jobs.uniqueKey, key), sql`${jobs.state} not in ('discarded', 'cancelled')`);

/**
 * Enqueues one job of `worker` (its kind, queue and attempts). Pass the caller's transaction as `db` and the job is
 * enqueued if and only if the change that wants it commits. With a `uniqueKey` already held, nothing is inserted:
 * answers that job and `inserted: false`.
 */
export async function enqueue<Args>(
  db: Executor,
  worker: Pick<Worker<Args>, 'kind' | 'queue' | 'maxAttempts'>,
  args: Args,
  options: EnqueueOptions,
): Promise<{ job: JobRow; inserted: boolean }> {
  const row = jobRow(worker, args, options);
  const key = options.uniqueKey;
  if (key === undefined) {
    const [job] = await db.insert(jobs).values(row).returning();
    if (!job) throw new Error(`enqueue ${worker.kind}: the insert answered no row`);
    return { job, inserted: true };
  }
  // The key's job may be discarded between a conflict and the read that follows it: then try again.
  for (let tries = 0; tries < 3; tries++) {
    const [job] = await db
      .insert(jobs)
      .values(row)
      .onConflictDoNothing({
        target: jobs.uniqueKey,
        where: sql`${jobs.uniqueKey} is not null and ${jobs.state} not in ('discarded', 'cancelled')`,
      })
      .returning();
    if (job) return { job, inserted: true };
    const [existing] = await db.select().from(jobs).where(liveWithKey(key)).limit(1);
    if (existing) return { job: existing, inserted: false };
  }
  throw new Error(`enqueue ${worker.kind}: the job with unique key "${key}" kept changing; try again`);
}

/**
 * Enqueues many jobs of one worker in one statement (ingest's evaluations of every rule a batch touched), each with
 * its own options; jobs whose unique key is held already are skipped. Answers how many were inserted.
 */
export async function enqueueMany<Args>(
  db: Executor,
  worker: Pick<Worker<Args>, 'kind' | 'queue' | 'maxAttempts'>,
  items: readonly { args: Args; options: EnqueueOptions }[],
): Promise<number> {
  if (items.length === 0) return 0;
  const rows = items.map(({ args, options }) => jobRow(worker, args, options));
  const inserted = await db
    .insert(jobs)
    .values(rows)
    .onConflictDoNothing({
      target: jobs.uniqueKey,
      where: sql`${jobs.uniqueKey} is not null and ${jobs.state} not in ('discarded', 'cancelled')`,
    })
    .returning({ id: jobs.id });
  return inserted.length;
}
