/** For island tests: the alert jobs run in process (server/test/alerts.ts), and a space with an analyst. */
import { runAlertJobs as runJobs } from '../../../server/test/alerts.ts';
import type { startTestApi } from './test-api.ts';
import { spaceWithSource } from './test-ingest.ts';

type TestApi = Awaited<ReturnType<typeof startTestApi>>;

/** Runs the due alert jobs (firings, evaluations, the minute's schedule, notifications) until none is left. */
export async function runAlertJobs(api: TestApi): Promise<void> {
  await runJobs(api.db, { deliveries: true });
}

/** The test space of test-ingest.ts (owner Olivia, viewer Vic, source "edge") with Ana as its analyst. */
export async function spaceWithAnalyst(api: TestApi) {
  const space = await spaceWithSource(api);
  const analyst = await api.signUp('ana@example.com', 'Ana Analyst');
  await api.join(space.spaceId, space.owner, analyst, 'analyst');
  return { ...space, analyst };
}
