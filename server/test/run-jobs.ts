/** Runs real workers on a test database until a poll starts nothing (what one area's tests need of the runner). */
import type { Db } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { JobRunner } from '../services/jobs/runner.ts';
import type { Worker } from '../services/jobs/worker.ts';
import { silentLogger } from '../services/shared/logger.ts';

/** Polls `workers` on `db` (each poll waits for the jobs it started) until none starts; answers how many ran. */
export async function runUntilIdle(
  db: Db,
  workers: readonly Worker<never>[],
  options: { now?: (() => Date) | undefined; deps?: AppDeps | undefined } = {},
): Promise<number> {
  const runner = new JobRunner({
    db,
    workers,
    log: silentLogger,
    ...(options.now ? { now: options.now } : {}),
    ...(options.deps ? { deps: options.deps } : {}),
  });
  let ran = 0;
  for (let polls = 0; polls < 200; polls++) {
    const started = await runner.runOnce();
    if (started === 0) break;
    ran += started;
  }
  await runner.stop(5_000);
  return ran;
}
