/** Helpers of the vulnerability tests: run the area's workers (imports, re-assessments, acceptance expiry). */
import type { Db } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { JobRunner } from '../services/jobs/runner.ts';
import { backgroundWorkers } from '../services/jobs/workers.ts';
import { silentLogger } from '../services/shared/logger.ts';

/** Runs every `vulns.*` worker on `db` until a poll starts nothing; answers how many jobs ran. */
export async function runVulnJobs(db: Db, options: { now?: () => Date; deps?: AppDeps } = {}): Promise<number> {
  const runner = new JobRunner({
    db,
    workers: backgroundWorkers.filter((w) => w.kind.startsWith('vulns.')),
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
