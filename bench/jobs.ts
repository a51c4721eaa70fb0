/**
 * The jobs table under a backlog: 10 000 no-op jobs due at once, claimed and completed by 1, 2 and 4 runners on
 * PostgreSQL (each runner with its own connection pool, as separate API processes would have) and by one runner on
 * PGlite (on disk, worker thread, as the server opens it). Answers jobs/s from the moment they were due to the
 * last completion, and the latency of each job from `scheduled_at` to `completed_at` (the wait in the backlog
 * included). Nothing here is asserted by tests.
 *
 * `node bench/run.ts jobs` prints the markdown section; bench/run.ts includes it.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase, rowsOf } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { jobs } from '../server/db/schema/jobs.ts';
import { JobRunner } from '../server/services/jobs/runner.ts';
import { defineWorker } from '../server/services/jobs/worker.ts';
import { postgresDatabase, tempDir } from './lib/databases.ts';
import { count, loadAverage, ms, table } from './lib/format.ts';

const JOBS = 10_000;
const CONCURRENCY = 10;
const POLL_MS = 100;

type Backend = { label: string; runners: number; open(): Promise<Database>; cleanup(): Promise<void> };

function postgres(runners: number): Backend {
  let created: Awaited<ReturnType<typeof postgresDatabase>> | undefined;
  return {
    label: 'PostgreSQL',
    runners,
    async open() {
      created ??= await postgresDatabase(`sg_bench_jobs_${randomBytes(6).toString('hex')}`);
      return openDatabase({ url: created.url });
    },
    cleanup: async () => created?.drop(),
  };
}

function pglite(): Backend {
  const dir = tempDir('sg-bench-jobs-');
  let database: Database | undefined;
  return {
    label: 'PGlite (worker thread, tmp dir)',
    runners: 1,
    // One connection: the runner shares the handle that filled the table.
    async open() {
      database ??= await openDatabase({ dataDir: dir.path, thread: true });
      return database;
    },
    async cleanup() {
      dir.remove();
    },
  };
}

/** Fills the table with JOBS no-op jobs, makes them all due now, runs them to the last; answers the table's row. */
async function measure(backend: Backend): Promise<string[]> {
  let performed = 0;
  let allPerformed: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => {
    allPerformed = resolve;
  });
  const worker = defineWorker({
    kind: 'bench.noop',
    async perform() {
      performed++;
      if (performed === JOBS) allPerformed();
    },
  });
  const handles: Database[] = [];
  try {
    const main = await backend.open();
    handles.push(main);
    await migrate(main);
    // Not due until the runners start, so the backlog is whole when they do.
    const insertedAt = new Date();
    for (let i = 0; i < JOBS; i += 1_000) {
      const rows = Array.from({ length: Math.min(1_000, JOBS - i) }, (_, j) => ({
        kind: worker.kind,
        args: { i: i + j },
        maxAttempts: worker.maxAttempts,
        scheduledAt: new Date('2100-01-01T00:00:00Z'),
        insertedAt,
      }));
      await main.db.insert(jobs).values(rows);
    }
    await main.db.execute(sql`vacuum analyze jobs`);
    for (let i = handles.length; i < backend.runners; i++) handles.push(await backend.open());
    const runners = handles.map(
      (handle) => new JobRunner({ db: handle.db, workers: [worker], concurrency: CONCURRENCY, pollMs: POLL_MS }),
    );
    const due = new Date();
    await main.db.execute(sql`update jobs set scheduled_at = ${due.toISOString()}::timestamptz`);
    for (const runner of runners) runner.start();
    await finished;
    await Promise.all(runners.map((runner) => runner.stop()));
    const [stats] = rowsOf<{ done: number; last: string; p50: number; p95: number }>(
      await main.db.execute(sql`
        select count(*)::int as done, max(completed_at)::text as last,
          percentile_cont(0.5) within group (order by extract(epoch from completed_at - scheduled_at) * 1000) as p50,
          percentile_cont(0.95) within group (order by extract(epoch from completed_at - scheduled_at) * 1000) as p95
        from jobs where state = 'completed'`),
    );
    if (!stats || stats.done !== JOBS) throw new Error(`bench jobs: ${stats?.done ?? 0} of ${JOBS} jobs completed`);
    const seconds = (new Date(stats.last).getTime() - due.getTime()) / 1000;
    return [
      backend.label,
      String(backend.runners),
      count(JOBS / seconds),
      `${ms(Number(stats.p50), 0)} / ${ms(Number(stats.p95), 0)}`,
    ];
  } finally {
    await Promise.all(handles.map((handle) => handle.close().catch(() => undefined)));
    await backend.cleanup();
  }
}

/** The "Background jobs" section of BENCHMARKS.md. */
export async function benchJobs(): Promise<string> {
  const before = loadAverage();
  const rows: string[][] = [];
  for (const backend of [postgres(1), postgres(2), postgres(4), pglite()]) rows.push(await measure(backend));
  return [
    '## Background jobs',
    '',
    `Command: \`node bench/run.ts jobs\`. ${count(JOBS)} no-op jobs in the \`jobs\` table (server/services/jobs/), all due at the same instant, claimed (\`UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED LIMIT n)\`) and completed by runners of ${CONCURRENCY} slots each polling every ${POLL_MS} ms (and whenever a job finishes); on PostgreSQL each runner has its own connection pool, as separate API processes would. jobs/s: from the moment they were due to the last completion. Latency: \`completed_at - scheduled_at\` per job, so the wait in the backlog is included. Load average before: ${before}.`,
    '',
    ...table(['database', 'runners', 'jobs/s', 'latency ms p50 / p95'], rows, [1, 2]),
  ].join('\n');
}

if (import.meta.main) console.log(await benchJobs());
