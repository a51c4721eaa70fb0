import { evaluateWorker } from '../alerts/evaluate-worker.ts';
import { matchWorker } from '../alerts/match-worker.ts';
import { scheduleWorker } from '../alerts/schedule-worker.ts';
import { renewWorker } from '../billing/renew.ts';
import { retentionWorker } from '../events/retention.ts';
import { deliverWorker } from '../notifications/deliver.ts';
import { assessWorker } from '../vulns/assess/run.ts';
import { expireWorker } from '../vulns/findings/expire-worker.ts';
import { importWorker } from '../vulns/refs/import.ts';
import { pruneJobsWorker } from './prune.ts';
import type { Worker } from './worker.ts';

/** Every area's workers: the list the server's one `JobRunner` runs. A new area adds its workers here. */
export const backgroundWorkers: readonly Worker<never>[] = [
  retentionWorker,
  pruneJobsWorker,
  matchWorker,
  evaluateWorker,
  scheduleWorker,
  deliverWorker,
  assessWorker,
  expireWorker,
  importWorker,
  renewWorker,
];
