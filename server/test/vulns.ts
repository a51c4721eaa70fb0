/** Helpers of the vulnerability tests: run the area's workers (imports, re-assessments, acceptance expiry). */
import type { Db } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { backgroundWorkers } from '../services/jobs/workers.ts';
import { runUntilIdle } from './run-jobs.ts';

/** Runs every `vulns.*` worker on `db` until a poll starts nothing; answers how many jobs ran. */
export function runVulnJobs(db: Db, options: { now?: () => Date; deps?: AppDeps } = {}): Promise<number> {
  return runUntilIdle(
    db,
    backgroundWorkers.filter((w) => w.kind.startsWith('vulns.')),
    options,
  );
}
