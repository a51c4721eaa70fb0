import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { jobs } from '../../db/schema/jobs.ts';

/**
 * Withdraws a job that has not started (available, or retryable between attempts), e.g. the deliveries of a
 * webhook endpoint just deleted; usable in the caller's transaction. A running or finished job is left as it is.
 * Answers whether the job was cancelled; its unique key is free again.
 */
export async function cancelJob(db: Executor, id: number, now: Date): Promise<boolean> {
  const cancelled = await db
    .update(jobs)
    .set({ state: 'cancelled', cancelledAt: now })
    .where(and(eq(jobs.id, id), sql`${jobs.state} in ('available', 'retryable')`))
    .returning({ id: jobs.id });
  return cancelled.length === 1;
}
