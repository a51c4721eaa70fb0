import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { spaces } from './spaces.ts';

/** Where a job is in its life: waiting to run, running, waiting to retry, or finished one of three ways. */
export const jobStates = ['available', 'executing', 'retryable', 'completed', 'discarded', 'cancelled'] as const;
export type JobState = (typeof jobStates)[number];

/** One failed attempt of a job, kept on its row. */
export type JobError = { at: string; attempt: number; error: string };

/**
 * Background work of every area, one row per job (the shape of Oban's `oban_jobs`): run by whichever API process
 * claims it first (`server/services/jobs/`), retried with backoff, kept after it finished until pruned.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    queue: text('queue').notNull().default('default'),
    /** The worker that runs it, e.g. `events.retention`. */
    kind: text('kind').notNull(),
    args: jsonb('args').$type<unknown>().notNull().default({}),
    state: text('state', { enum: jobStates }).notNull().default('available'),
    /** Attempts started so far (the running one included). */
    attempt: integer('attempt').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(20),
    /** Not run before this: now, a backoff after a failure, or the start of a periodic window. */
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    discardedAt: timestamp('discarded_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    errors: jsonb('errors').$type<JobError[]>().notNull().default([]),
    /** At most one live or completed job per key: a periodic window, a delivery. */
    uniqueKey: text('unique_key'),
    /** The runner running it, and until when: past that, the runner is taken for dead and the job is reclaimed. */
    lockedBy: text('locked_by'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    spaceId: uuid('space_id').references(() => spaces.id, { onDelete: 'cascade' }),
    insertedAt: timestamp('inserted_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // The claim: due jobs of a queue in order, only over the rows that can be claimed.
    index('jobs_claim_idx').on(t.queue, t.scheduledAt, t.id).where(sql`${t.state} in ('available', 'retryable')`),
    index('jobs_lease_idx').on(t.leaseUntil).where(sql`${t.state} = 'executing'`),
    index('jobs_finished_idx')
      .on(sql`coalesce(${t.completedAt}, ${t.discardedAt}, ${t.cancelledAt})`)
      .where(sql`${t.state} in ('completed', 'discarded', 'cancelled')`),
    uniqueIndex('jobs_unique_key_idx')
      .on(t.uniqueKey)
      .where(sql`${t.uniqueKey} is not null and ${t.state} not in ('discarded', 'cancelled')`),
    index('jobs_space_kind_idx').on(t.spaceId, t.kind, t.state).where(sql`${t.spaceId} is not null`),
    check(
      'jobs_state_check',
      sql`${t.state} in ('available', 'executing', 'retryable', 'completed', 'discarded', 'cancelled')`,
    ),
    check('jobs_attempts_check', sql`${t.maxAttempts} > 0 and ${t.attempt} >= 0`),
  ],
);
export type JobRow = typeof jobs.$inferSelect;
