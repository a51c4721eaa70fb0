/** Helpers of the alert tests: run the alert workers (and, on request, the deliveries) until nothing is due. */
import type { Db } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { evaluateWorker } from '../services/alerts/workers/evaluate-worker.ts';
import { matchWorker } from '../services/alerts/workers/match-worker.ts';
import { scheduleWorker } from '../services/alerts/workers/schedule-worker.ts';
import type { Worker } from '../services/jobs/worker.ts';
import { deliverWorker } from '../services/notifications/workers/deliver-worker.ts';
import { runUntilIdle } from './run-jobs.ts';

/**
 * Runs the real alert workers on `db` until a poll starts nothing: the firings ingest enqueued, the evaluations
 * (ingest-triggered ones are due at the end of their 10-second slot: pass a clock ahead, or move it), the minute's
 * schedule, and with `deliveries` the notifications. Answers how many jobs ran.
 */
export async function runAlertJobs(
  db: Db,
  options: { now?: () => Date; deliveries?: boolean; deps?: AppDeps } = {},
): Promise<number> {
  const workers: Worker<never>[] = [matchWorker, evaluateWorker, scheduleWorker];
  if (options.deliveries) workers.push(deliverWorker);
  return runUntilIdle(db, workers, options);
}
