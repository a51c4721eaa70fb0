import { evaluateWorker } from '../alerts/workers/evaluate-worker.ts';
import { matchWorker } from '../alerts/workers/match-worker.ts';
import { scheduleWorker } from '../alerts/workers/schedule-worker.ts';
import { renewWorker } from '../billing/workers/renew-worker.ts';
import { retentionWorker } from '../events/workers/retention-worker.ts';
import { deliverWorker } from '../notifications/workers/deliver-worker.ts';
import { assessWorker } from '../vulns/workers/assess-worker.ts';
import { expireWorker } from '../vulns/workers/expire-worker.ts';
import { importWorker } from '../vulns/workers/import-worker.ts';
import type { Worker } from './worker.ts';
import { pruneJobsWorker } from './workers/prune-worker.ts';

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
