/**
 * For island tests: runs the alert detection jobs (match on ingest, threshold and silence windows) that are due, in
 * process, until none is left. Main provides no helper for this; the jobs module's own runner does the work.
 */
import { evaluateWorker } from '../../../server/services/alerts/evaluate-worker.ts';
import { matchWorker } from '../../../server/services/alerts/match-worker.ts';
import { scheduleWorker } from '../../../server/services/alerts/schedule-worker.ts';
import { JobRunner } from '../../../server/services/jobs/runner.ts';
import { deliverWorker } from '../../../server/services/notifications/deliver.ts';
import type { Worker } from '../../../server/services/jobs/worker.ts';
import type { startTestApi } from '../shared/test-api.ts';
import { spaceWithSource } from '../shared/test-ingest.ts';

type TestApi = Awaited<ReturnType<typeof startTestApi>>;

const workers: readonly Worker<never>[] = [matchWorker, evaluateWorker, scheduleWorker, deliverWorker];

/** Runs due alert jobs until a poll starts none (at most `rounds` polls). */
export async function runAlertJobs(api: TestApi, rounds = 10): Promise<void> {
  const runner = new JobRunner({ db: api.db, workers });
  for (let round = 0; round < rounds; round += 1) {
    if ((await runner.runOnce()) === 0) return;
  }
}

/** The test space of test-ingest.ts (owner Olivia, viewer Vic, source "edge") with Ana as its analyst. */
export async function spaceWithAnalyst(api: TestApi) {
  const space = await spaceWithSource(api);
  const analyst = await api.signUp('ana@example.com', 'Ana Analyst');
  await api.join(space.spaceId, space.owner, analyst, 'analyst');
  return { ...space, analyst };
}
