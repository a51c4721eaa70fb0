import { lt, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.ts';
import { ingestBatches, ingestErrors } from '../../db/schema/ingest-batches.ts';
import { deleteExpiredCredentials, type Housekeeping } from '../accounts/housekeeping.ts';
import type { Logger } from '../shared/logger.ts';

/** How long idempotency answers and refused-line records are kept. */
const bookkeepingDays = 7;
const dayMs = 86_400_000;

/** What one retention run deleted. */
export type RetentionResult = {
  /** Events deleted, per space id. */
  bySpace: Record<string, number>;
  events: number;
  ingestBatches: number;
  ingestErrors: number;
  /** Expired credentials and counters removed (see `deleteExpiredCredentials`). */
  housekeeping: Housekeeping;
};

/**
 * Deletes events older than their retention: the source's when set, capped by the space's (PRODUCT.md §5),
 * plus idempotency answers and refused-line records past a week. Answers what it deleted.
 */
export async function deleteExpiredEvents(db: Db, now: Date): Promise<RetentionResult> {
  const result = await db.execute(sql`
    with gone as (
      delete from events e
      using sources s, spaces sp
      where s.id = e.source_id and sp.id = e.space_id
        and e.time < ${now.toISOString()}::timestamptz
          - make_interval(days => least(coalesce(s.retention_days, sp.retention_days), sp.retention_days))
      returning e.space_id
    )
    select space_id, count(*) as n from gone group by space_id`);
  const bySpace: Record<string, number> = {};
  let total = 0;
  for (const row of rowsOf<{ space_id: string; n: string | number }>(result)) {
    const n = Number(row.n);
    bySpace[row.space_id] = n;
    total += n;
  }
  const cutoff = new Date(now.getTime() - bookkeepingDays * dayMs);
  const batches = await db
    .delete(ingestBatches)
    .where(lt(ingestBatches.createdAt, cutoff))
    .returning({ k: ingestBatches.idempotencyKey });
  const errors = await db
    .delete(ingestErrors)
    .where(lt(ingestErrors.createdAt, cutoff))
    .returning({ id: ingestErrors.id });
  const housekeeping = await deleteExpiredCredentials(db, now);
  return { bySpace, events: total, ingestBatches: batches.length, ingestErrors: errors.length, housekeeping };
}

/** The daily retention and housekeeping job: runs once now and every 24 hours; the timer does not keep the process alive. */
export function startRetentionJob(db: Db, log: Logger): { stop(): void } {
  const run = async () => {
    try {
      const done = await deleteExpiredEvents(db, new Date());
      log({
        level: 'info',
        msg: 'retention',
        events: done.events,
        ingestBatches: done.ingestBatches,
        ingestErrors: done.ingestErrors,
        ...done.housekeeping,
      });
    } catch (error) {
      log({ level: 'error', msg: 'retention failed', error: String(error) });
    }
  };
  void run();
  const timer = setInterval(run, dayMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
