/** Helpers of the alert tests: run the alert workers (and, on request, the deliveries) until nothing is due. */
import type { Db } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { evaluateWorker } from '../services/alerts/evaluate-worker.ts';
import { matchWorker } from '../services/alerts/match-worker.ts';
import { scheduleWorker } from '../services/alerts/schedule-worker.ts';
import { JobRunner } from '../services/jobs/runner.ts';
import type { Worker } from '../services/jobs/worker.ts';
import { deliverWorker } from '../services/notifications/deliver.ts';
import { silentLogger } from '../services/shared/logger.ts';

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
  const runner = new JobRunner({
    db,
    workers,
    log: silentLogger,
    ...(options.now ? { now: options.now } : {}),
    ...(options.deps ? { deps: options.deps } : {}),
  });
  let ran = 0;
  for (let polls = 0; polls < 50; polls++) {
    const started = await runner.runOnce();
    if (started === 0) break;
    ran += started;
  }
  await runner.stop(1_000);
  return ran;
}
