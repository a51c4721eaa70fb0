import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../../db/database.ts';
import { defineWorker } from '../worker.ts';

/** Days a completed, discarded or cancelled job is kept (to read what ran and why it failed) before pruning. */
export const JOBS_KEPT_DAYS = 7;
/** Rows deleted per statement, each its own short transaction. */
const chunk = 5_000;

/** Deletes the jobs that finished before `before`, in chunks; answers how many. */
export async function pruneJobs(db: Db, before: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      with gone as (
        delete from jobs where id in (
          select id from jobs
          where state in ('completed', 'discarded', 'cancelled')
            and coalesce(completed_at, discarded_at, cancelled_at) < ${before.toISOString()}::timestamptz
          limit ${chunk}
        )
        returning 1
      )
      select count(*)::int as n from gone`);
    const n = Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
    total += n;
    if (n < chunk) return total;
  }
}

/** The daily pruning of finished jobs, itself a periodic job. */
export const pruneJobsWorker = defineWorker({
  kind: 'jobs.prune',
  queue: 'maintenance',
  every: '1d',
  maxAttempts: 5,
  async perform(_args, { db, now, log }) {
    const pruned = await pruneJobs(db, new Date(now().getTime() - JOBS_KEPT_DAYS * 86_400_000));
    log({ level: 'info', msg: 'jobs pruned', pruned });
  },
});
