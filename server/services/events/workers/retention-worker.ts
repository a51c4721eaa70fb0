import { lt, sql } from 'drizzle-orm';
import { type Db, driverOf, rowsOf } from '../../../db/database.ts';
import { ingestBatches, ingestErrors } from '../../../db/schema/ingest-batches.ts';
import { deleteExpiredCredentials, type Housekeeping } from '../../accounts/housekeeping.ts';
import { defineWorker } from '../../jobs/worker.ts';
import { ensurePartitions, listPartitions } from '../partitions.ts';

/** How long idempotency answers and refused-line records are kept. */
const bookkeepingDays = 7;
const dayMs = 86_400_000;
/** Events deleted per statement: each chunk is its own short transaction, so ingest never waits long behind it. */
export const RETENTION_CHUNK = 5_000;

/** What one retention run deleted. */
export type RetentionResult = {
  /** Events deleted, per space id. */
  bySpace: Record<string, number>;
  events: number;
  /** Monthly partitions dropped whole (both tables), by name. */
  droppedPartitions: string[];
  ingestBatches: number;
  ingestErrors: number;
  /** Expired credentials and counters removed (see `deleteExpiredCredentials`). */
  housekeeping: Housekeeping;
};

/** One source's cut: its events before `cutoff` have expired. */
type Cut = { spaceId: string; sourceId: string; cutoff: Date };

/**
 * Each source's retention cut: the source's retention when set, capped by the space's (docs/product.md §5), counted back
 * from `now` and rounded down to the start of that UTC day, so that whole rollup buckets expire with their events
 * (an event goes in the first run after its whole day is past the retention).
 */
export async function retentionCuts(db: Db, now: Date): Promise<Cut[]> {
  const result = await db.execute(sql`
    select s.id as source_id, s.space_id,
      least(coalesce(s.retention_days, sp.retention_days), sp.retention_days) as days
    from sources s join spaces sp on sp.id = s.space_id`);
  return rowsOf<{ source_id: string; space_id: string; days: number | string }>(result).map((row) => {
    const at = now.getTime() - Number(row.days) * dayMs;
    return { spaceId: row.space_id, sourceId: row.source_id, cutoff: new Date(at - (at % dayMs)) };
  });
}

/**
 * Deletes events older than their retention (`retentionCuts`), without long locks: a monthly partition whose every
 * row has expired is dropped whole (both tables; a lock wait over 2 s gives up until the next run), the rest is
 * deleted in chunks of RETENTION_CHUNK events with their raw records, each chunk its own transaction; then the
 * rollup buckets before each cut. Also idempotency answers and refused-line records past a week. Answers what it
 * deleted. The daily job paces the chunks (`pauseRatio`).
 */
export async function deleteExpiredEvents(
  db: Db,
  now: Date,
  options: { pauseRatio?: number } = {},
): Promise<RetentionResult> {
  // Paced: after each chunk, a pause of `pauseRatio` times what the chunk took, so ingest and searches beside it get
  // the database (and, on a small machine, the cores) for that long; 0 deletes back to back.
  const pauseRatio = options.pauseRatio ?? 0;
  const cuts = await retentionCuts(db, now);
  const bySpace: Record<string, number> = {};
  const add = (spaceId: string, n: number) => {
    if (n > 0) bySpace[spaceId] = (bySpace[spaceId] ?? 0) + n;
  };
  const droppedPartitions: string[] = [];
  if (cuts.length > 0) {
    const earliestCut = Math.min(...cuts.map((c) => c.cutoff.getTime()));
    const months = (await listPartitions(db)).filter((p) => p.to.getTime() <= earliestCut);
    for (const partition of months) {
      if (partition.table === 'events') {
        const counted = rowsOf<{ space_id: string; n: number | string }>(
          await db.execute(sql.raw(`select space_id, count(*) as n from ${partition.name} group by space_id`)),
        );
        if (!(await dropPartition(db, partition.name))) continue;
        for (const row of counted) add(row.space_id, Number(row.n));
      } else if (!(await dropPartition(db, partition.name))) continue;
      droppedPartitions.push(partition.name);
    }
  }
  for (const cut of cuts) {
    for (;;) {
      const started = performance.now();
      const result = await db.execute(sql`
        with doomed as (
          select space_id, id, time from events
          where space_id = ${cut.spaceId}::uuid and source_id = ${cut.sourceId}::uuid
            and time < ${cut.cutoff.toISOString()}::timestamptz
          limit ${RETENTION_CHUNK}
        ),
        gone as (
          delete from events e using doomed d where e.space_id = d.space_id and e.id = d.id and e.time = d.time
          returning e.space_id, e.id, e.time
        ),
        raw as (
          delete from event_raw r using gone g where r.space_id = g.space_id and r.id = g.id and r.time = g.time
          returning 1
        )
        select (select count(*) from gone)::int as n, (select count(*) from raw)::int as raw`);
      const n = Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
      add(cut.spaceId, n);
      if (n < RETENTION_CHUNK) break;
      if (pauseRatio > 0) await new Promise((done) => setTimeout(done, (performance.now() - started) * pauseRatio));
    }
    for (const table of ['event_rollup_minute', 'event_rollup_hour', 'event_rollup_day']) {
      await db.execute(
        sql`delete from ${sql.raw(table)} where space_id = ${cut.spaceId}::uuid and source_id = ${cut.sourceId}::uuid
          and bucket < ${cut.cutoff.toISOString()}::timestamptz`,
      );
    }
  }
  const events = Object.values(bySpace).reduce((a, b) => a + b, 0);
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
  return {
    bySpace,
    events,
    droppedPartitions,
    ingestBatches: batches.length,
    ingestErrors: errors.length,
    housekeeping,
  };
}

/**
 * Drops one monthly partition. Dropping takes a brief exclusive lock on the parent table, so on PostgreSQL it waits
 * at most 2 s for running queries (then leaves the partition for the next run, answering false) instead of
 * queueing every new query behind it.
 */
async function dropPartition(db: Db, name: string): Promise<boolean> {
  try {
    await db.transaction(async (tx) => {
      if (driverOf(db) === 'postgres') await tx.execute(sql`set local lock_timeout = '2s'`);
      await tx.execute(sql.raw(`drop table ${name}`));
    });
    return true;
  } catch (error) {
    // Drizzle wraps the driver's error: the SQLSTATE is on it or on its cause.
    const failure = error as { code?: string; cause?: { code?: string } };
    if ((failure.cause?.code ?? failure.code) === '55P03') return false;
    throw error;
  }
}

/**
 * The daily retention and housekeeping job (a periodic job of `server/services/jobs/`, so one API process runs each
 * day's window): creates the coming month's partitions, then deletes what has expired.
 */
export const retentionWorker = defineWorker({
  kind: 'events.retention',
  queue: 'maintenance',
  every: '1d',
  maxAttempts: 5,
  // Deleting a large backlog in chunks takes a while; a process that dies mid-run is taken over after this.
  timeoutMs: 3_600_000,
  async perform(_args, { db, now, log }) {
    const created = await ensurePartitions(db, now());
    // Half the time deleting, half pausing: a large backlog takes twice as long and ingest keeps its pace.
    const done = await deleteExpiredEvents(db, now(), { pauseRatio: 1 });
    log({
      level: 'info',
      msg: 'retention',
      events: done.events,
      partitionsCreated: created,
      partitionsDropped: done.droppedPartitions,
      ingestBatches: done.ingestBatches,
      ingestErrors: done.ingestErrors,
      ...done.housekeeping,
    });
  },
});
