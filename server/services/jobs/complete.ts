import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { type JobRow, jobs } from '../../db/schema/jobs.ts';

/**
 * Completes a job inside the worker's own transaction, so its effect and its completion commit together: a process
 * that dies after that commit leaves a completed job, never one that runs again and repeats the effect (an alert
 * counting the same events twice). The runner's own completion afterwards finds the job finished and changes nothing.
 */
export async function completeWithin(tx: Executor, job: JobRow, now: Date): Promise<void> {
  await tx
    .update(jobs)
    .set({ state: 'completed', completedAt: now, lockedBy: null, leaseUntil: null })
    .where(
      and(
        eq(jobs.id, job.id),
        eq(jobs.state, 'executing'),
        eq(jobs.attempt, job.attempt),
        ...(job.lockedBy ? [eq(jobs.lockedBy, job.lockedBy)] : []),
      ),
    );
}
