import { hostname } from 'node:os';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { buildDeps } from '../../build-deps.ts';
import { systemClock } from '../../clock.ts';
import { type Db, rowsOf } from '../../db/database.ts';
import { type JobRow, jobs } from '../../db/schema/jobs.ts';
import type { AppDeps } from '../../deps.ts';
import { type Logger, silentLogger } from '../shared/logger.ts';
import { enqueueWindow, type WindowArgs, windowOf } from './periodic.ts';
import { DiscardJob, periodMs, type Worker } from './worker.ts';
import { JOBS_KEPT_DAYS } from './workers/prune-worker.ts';

/** How a runner is set up. */
export type JobRunnerOptions = {
  db: Db;
  /** Every kind this runner runs; jobs of other kinds in its queues are left to runners that know them. */
  workers: readonly Worker<never>[];
  /** The clock of leases, schedules and windows (default: the wall clock). */
  now?: () => Date;
  log?: Logger;
  /** Jobs run at once per queue: one number for every queue, or per queue name (default 5). */
  concurrency?: number | Record<string, number>;
  /** Milliseconds between polls when no job finished to wake the runner (default 1 s). */
  pollMs?: number;
  /** Added to a worker's timeout to make the lease another runner waits out before reclaiming (default 30 s). */
  leaseGraceMs?: number;
  /** This runner in `locked_by` (default host, pid and a random part). */
  id?: string;
  /** What workers that send mail or read the configuration use (default: built from `db` and the environment). */
  deps?: AppDeps;
};

type Running = { job: JobRow; controller: AbortController; done: Promise<void> };

/** Literal, so the planner matches the partial claim index. */
const claimable = sql`${jobs.state} in ('available', 'retryable')`;

/** A failure as kept in the job's errors: the stack when there is one, bounded. */
function errorText(error: unknown): string {
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return text.slice(0, 4_000);
}

/**
 * Runs the jobs of the `jobs` table in one process, beside any number of runners in other processes: polls each
 * queue of its workers, claims due jobs with FOR UPDATE SKIP LOCKED under a lease, completes them, or records the
 * error and schedules a retry with backoff, or discards them after their last attempt. Each poll also enqueues the
 * current window of every periodic worker and reclaims the jobs of runners whose lease expired.
 */
export class JobRunner {
  readonly id: string;
  private readonly db: Db;
  private readonly deps: AppDeps;
  private readonly now: () => Date;
  private readonly log: Logger;
  private readonly pollMs: number;
  private readonly leaseGraceMs: number;
  private readonly byKind = new Map<string, Worker<never>>();
  private readonly queues = new Map<string, { kinds: string[]; slots: number }>();
  private readonly running = new Map<number, Running>();
  /** The last window key this runner enqueued per periodic kind, so a poll inserts a window once. */
  private readonly windows = new Map<string, string>();
  private loop: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;

  constructor(options: JobRunnerOptions) {
    this.db = options.db;
    this.now = options.now ?? systemClock;
    this.log = options.log ?? silentLogger;
    this.pollMs = options.pollMs ?? 1_000;
    this.leaseGraceMs = options.leaseGraceMs ?? 30_000;
    this.deps = options.deps ?? buildDeps({ db: options.db, now: this.now, log: this.log });
    this.id = options.id ?? `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
    for (const worker of options.workers) {
      if (this.byKind.has(worker.kind)) throw new Error(`Two workers share the job kind "${worker.kind}".`);
      // Pruning would free a window's key while the window still runs, and the window would run again.
      if (worker.every && periodMs(worker.every) > JOBS_KEPT_DAYS * 86_400_000)
        throw new Error(
          `Job kind "${worker.kind}" runs every ${worker.every}: at most ${JOBS_KEPT_DAYS}d, how long finished jobs are kept.`,
        );
      this.byKind.set(worker.kind, worker);
      const concurrency = options.concurrency ?? 5;
      const slots = typeof concurrency === 'number' ? concurrency : (concurrency[worker.queue] ?? 5);
      const queue = this.queues.get(worker.queue) ?? { kinds: [], slots };
      queue.kinds.push(worker.kind);
      this.queues.set(worker.queue, queue);
    }
  }

  /** Polls until `stop()`: at once, then every `pollMs`, and whenever a job finishes (a slot is free). */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.loop = (async () => {
      let woken = false;
      while (!this.stopping) {
        try {
          // A finished job only frees a slot: claim; the timer's poll does the rest too.
          if (woken) await this.claimAll();
          else await this.tick();
        } catch (error) {
          this.log({ level: 'error', msg: 'jobs: poll failed', runner: this.id, error: String(error) });
        }
        woken = await this.sleep();
      }
    })();
  }

  /**
   * Stops polling and waits up to `timeoutMs` for the running jobs; those still running then are signalled to stop
   * and put back for any runner to retry (their attempt counts), so a restart does not wait for their lease.
   */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finished = Promise.all([...this.running.values()].map((r) => r.done)).then(() => true);
    const waited = new Promise<boolean>((done) => {
      timer = setTimeout(() => done(false), timeoutMs);
    });
    const allDone = await Promise.race([finished, waited]);
    clearTimeout(timer);
    if (!allDone) await this.release([...this.running.values()]);
  }

  /**
   * One poll: enqueues the current window of each periodic worker, reclaims jobs whose lease expired, and claims
   * due jobs into the free slots of each queue, starting them. Answers how many it started.
   */
  async tick(): Promise<number> {
    if (this.stopping) return 0;
    const now = this.now();
    for (const worker of this.byKind.values()) {
      if (!worker.every) continue;
      const { key } = windowOf(worker.kind, worker.every, now);
      if (this.windows.get(worker.kind) === key) continue;
      await enqueueWindow(this.db, worker as Worker<WindowArgs>, now);
      this.windows.set(worker.kind, key);
    }
    await this.reclaim(now);
    return this.claimAll();
  }

  /** One poll (`tick`), then waits for the jobs it started to finish; answers how many ran. For tests and scripts. */
  async runOnce(): Promise<number> {
    const before = new Set(this.running.keys());
    const started = await this.tick();
    await Promise.all([...this.running.entries()].filter(([id]) => !before.has(id)).map(([, r]) => r.done));
    return started;
  }

  /** Waits until the next poll is due or a job finishes; answers true when a job's end woke it. */
  private sleep(): Promise<boolean> {
    return new Promise((done) => {
      const timer = setTimeout(() => finish(false), this.pollMs);
      timer.unref();
      const finish = (woken: boolean) => {
        clearTimeout(timer);
        this.wake = undefined;
        done(woken);
      };
      this.wake = () => finish(true);
    });
  }

  /** Puts the executing jobs of runners whose lease passed back to retry, or discards those out of attempts. */
  private async reclaim(now: Date): Promise<void> {
    const at = now.toISOString();
    const result = await this.db.execute(sql`
      update jobs set
        state = case when attempt >= max_attempts then 'discarded' else 'retryable' end,
        discarded_at = case when attempt >= max_attempts then ${at}::timestamptz end,
        scheduled_at = ${at}::timestamptz,
        errors = errors || jsonb_build_array(jsonb_build_object('at', ${at}::text, 'attempt', attempt,
          'error', 'the lease of runner ' || coalesce(locked_by, '?') || ' expired: its process stopped or died during the job')),
        locked_by = null, lease_until = null
      where state = 'executing' and lease_until < ${at}::timestamptz
      returning id, kind, state, attempt`);
    for (const row of rowsOf<{ id: string | number; kind: string; state: string; attempt: number }>(result))
      this.log({ level: 'warn', msg: 'jobs: reclaimed after its lease expired', runner: this.id, ...row });
  }

  /** Claims due jobs into every queue's free slots and starts them; answers how many. */
  private async claimAll(): Promise<number> {
    let started = 0;
    for (const [queue, { kinds, slots }] of this.queues) {
      const busy = [...this.running.values()].filter((r) => r.job.queue === queue).length;
      if (this.stopping || busy >= slots) continue;
      for (const job of await this.claim(queue, kinds, slots - busy)) {
        this.begin(job);
        started++;
      }
    }
    return started;
  }

  /** Takes up to `limit` due jobs of `queue`, skipping rows other runners are claiming, under this runner's lease. */
  private async claim(queue: string, kinds: string[], limit: number): Promise<JobRow[]> {
    const now = this.now();
    const lease = sql.join(
      kinds.map((kind) => sql`when ${kind} then ${(this.byKind.get(kind)?.timeoutMs ?? 0) + this.leaseGraceMs}`),
      sql` `,
    );
    const due = this.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.queue, queue), claimable, lte(jobs.scheduledAt, now), inArray(jobs.kind, kinds)))
      .orderBy(jobs.scheduledAt, jobs.id)
      .limit(limit)
      .for('update', { skipLocked: true });
    return this.db
      .update(jobs)
      .set({
        state: 'executing',
        attempt: sql`${jobs.attempt} + 1`,
        attemptedAt: now,
        lockedBy: this.id,
        leaseUntil: sql`${now.toISOString()}::timestamptz + (case ${jobs.kind} ${lease} end)::int * interval '1 millisecond'`,
      })
      .where(inArray(jobs.id, due))
      .returning();
  }

  /** Runs one claimed job in the background, bounded by its worker's timeout, and records how it ended. */
  private begin(job: JobRow): void {
    const worker = this.byKind.get(job.kind);
    if (!worker) throw new Error(`jobs: claimed a job of kind "${job.kind}" that this runner has no worker for`);
    const controller = new AbortController();
    const run = async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<never>((_, fail) => {
        timer = setTimeout(() => {
          controller.abort();
          fail(new Error(`${job.kind} ran past its timeout of ${worker.timeoutMs} ms`));
        }, worker.timeoutMs);
      });
      try {
        const ctx = { db: this.db, now: this.now, log: this.log, job, signal: controller.signal, deps: this.deps };
        await Promise.race([worker.perform(job.args as never, ctx), timedOut]);
        await this.finish(job, { state: 'completed', completedAt: this.now() });
      } catch (error) {
        await this.failed(worker, job, error);
      } finally {
        clearTimeout(timer);
      }
    };
    const done = run()
      .catch((error: unknown) => {
        // The row could not be updated (database gone): its lease runs out and another runner reclaims it.
        this.log({ level: 'error', msg: 'jobs: could not record the end of a job', id: job.id, error: String(error) });
      })
      .finally(() => {
        this.running.delete(job.id);
        this.wake?.();
      });
    this.running.set(job.id, { job, controller, done });
  }

  /** Records a failed attempt: retry after the worker's backoff, or discard after the last attempt. */
  private async failed(worker: Worker<never>, job: JobRow, error: unknown): Promise<void> {
    const now = this.now();
    const last = error instanceof DiscardJob || job.attempt >= job.maxAttempts;
    const entry = { at: now.toISOString(), attempt: job.attempt, error: errorText(error) };
    this.log({
      level: last ? 'error' : 'warn',
      msg: last ? 'jobs: discarded' : 'jobs: attempt failed, will retry',
      kind: job.kind,
      id: job.id,
      attempt: job.attempt,
      error: entry.error.split('\n')[0],
    });
    await this.finish(
      job,
      last
        ? { state: 'discarded', discardedAt: now }
        : { state: 'retryable', scheduledAt: new Date(now.getTime() + worker.backoff(job.attempt)) },
      entry,
    );
  }

  /**
   * Ends this runner's attempt of a job, only while it still holds it (same attempt, its lock): a job reclaimed
   * after a lease this runner overran is left to the runner that holds it now.
   */
  private async finish(
    job: JobRow,
    end: Partial<Pick<JobRow, 'state' | 'completedAt' | 'discardedAt' | 'scheduledAt'>>,
    error?: { at: string; attempt: number; error: string },
  ): Promise<void> {
    await this.db
      .update(jobs)
      .set({
        ...end,
        lockedBy: null,
        leaseUntil: null,
        ...(error ? { errors: sql`${jobs.errors} || ${JSON.stringify([error])}::jsonb` } : {}),
      })
      .where(
        and(
          eq(jobs.id, job.id),
          eq(jobs.state, 'executing'),
          eq(jobs.lockedBy, this.id),
          eq(jobs.attempt, job.attempt),
        ),
      );
  }

  /** Signals the jobs still running at stop and records the attempt as failed, so any runner retries them. */
  private async release(left: Running[]): Promise<void> {
    for (const { job, controller } of left) {
      controller.abort();
      const worker = this.byKind.get(job.kind);
      if (worker) await this.failed(worker, job, new Error('the runner stopped before the job finished'));
    }
  }
}
