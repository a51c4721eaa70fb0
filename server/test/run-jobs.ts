/** Runs real workers on a test database until a poll starts nothing: the one way tests drain the jobs table. */
import type { Db } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { JobRunner } from '../services/jobs/runner.ts';
import type { Worker } from '../services/jobs/worker.ts';
import { silentLogger } from '../services/shared/logger.ts';

/**
 * Polls `workers` (each poll waits for the jobs it started) until a poll starts none; answers how many ran. Given
 * several handles on one database, each gets its own runner, as separate API processes would, and every round polls
 * them all at once.
 */
export async function runUntilIdle(
  db: Db | readonly Db[],
  workers: readonly Worker<never>[],
  options: { now?: (() => Date) | undefined; deps?: AppDeps | undefined } = {},
): Promise<number> {
  const handles: readonly Db[] = Array.isArray(db) ? db : [db];
  const runners = handles.map(
    (handle, index) =>
      new JobRunner({
        db: handle,
        workers,
        log: silentLogger,
        ...(handles.length > 1 ? { id: `runner ${index + 1}` } : {}),
        ...(options.now ? { now: options.now } : {}),
        ...(options.deps ? { deps: options.deps } : {}),
      }),
  );
  let ran = 0;
  try {
    for (let polls = 0; polls < 200; polls++) {
      const started = (await Promise.all(runners.map((runner) => runner.runOnce()))).reduce((a, b) => a + b, 0);
      if (started === 0) break;
      ran += started;
    }
  } finally {
    await Promise.all(runners.map((runner) => runner.stop(5_000)));
  }
  return ran;
}
