import { sql } from 'drizzle-orm';
import { expect, test, vi } from 'vitest';
import { anotherHandle } from '../../test/harness.ts';
import { databaseOfFile, jobsOf, testClock } from '../../test/jobs.ts';
import { enqueue } from './enqueue.ts';
import { JobRunner } from './runner.ts';
import { DiscardJob, defineWorker } from './worker.ts';

const file = databaseOfFile();

const start = '2026-11-23T10:00:00Z';
const SECOND = 1_000;

/** A promise opened by hand: a job that runs until the test lets it finish. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((done) => {
    open = done;
  });
  return { opened, open };
}

test('a job runs once and completes', async () => {
  const { db } = file;
  const clock = testClock(start);
  const seen: { n: number; attempt: number }[] = [];
  const worker = defineWorker<{ n: number }>({
    kind: 'test.once',
    async perform(args, { job }) {
      seen.push({ n: args.n, attempt: job.attempt });
    },
  });
  const runner = new JobRunner({ db, workers: [worker], now: clock.now });
  await enqueue(db, worker, { n: 7 }, { now: clock.now() });
  expect(await runner.runOnce()).toBe(1);
  expect(await runner.runOnce()).toBe(0);
  expect(seen).toEqual([{ n: 7, attempt: 1 }]);
  const [job] = await jobsOf(db, 'test.once');
  expect(job).toMatchObject({ state: 'completed', attempt: 1, completedAt: clock.now(), lockedBy: null, errors: [] });
});

test('a failing job is retried with exponential backoff, then discarded after its last attempt with its errors', async () => {
  const { db } = file;
  const clock = testClock(start);
  const worker = defineWorker({
    kind: 'test.failing',
    maxAttempts: 3,
    async perform(_args, { job }) {
      throw new Error(`provider down (attempt ${job.attempt})`);
    },
  });
  const runner = new JobRunner({ db, workers: [worker], now: clock.now });
  await enqueue(db, worker, {}, { now: clock.now() });
  // 15 s after the first failure, 30 s after the second, each with up to 10 % of jitter.
  for (const [attempt, base] of [
    [1, 15 * SECOND],
    [2, 30 * SECOND],
  ] as const) {
    expect(await runner.runOnce()).toBe(1);
    const [job] = await jobsOf(db, 'test.failing');
    expect(job).toMatchObject({ state: 'retryable', attempt, lockedBy: null });
    const wait = (job?.scheduledAt.getTime() ?? 0) - clock.now().getTime();
    expect(wait).toBeGreaterThanOrEqual(base);
    expect(wait).toBeLessThanOrEqual(base * 1.1);
    // Not before its backoff.
    expect(await runner.runOnce()).toBe(0);
    clock.advance(wait);
  }
  expect(await runner.runOnce()).toBe(1);
  const [job] = await jobsOf(db, 'test.failing');
  expect(job).toMatchObject({ state: 'discarded', attempt: 3, discardedAt: clock.now() });
  expect(job?.errors.map((e) => e.attempt)).toEqual([1, 2, 3]);
  expect(job?.errors[2]?.error).toMatch(/^Error: provider down \(attempt 3\)/);
  clock.advance(3_600 * SECOND);
  expect(await runner.runOnce()).toBe(0);
});

test('DiscardJob gives up at once, and an attempt past its timeout fails and is retried', async () => {
  const { db } = file;
  const clock = testClock(start);
  const hopeless = defineWorker({
    kind: 'test.hopeless',
    async perform() {
      throw new DiscardJob('the webhook endpoint was deleted');
    },
  });
  let aborted = false;
  const slow = defineWorker({
    kind: 'test.slow',
    timeoutMs: 20,
    async perform(_args, { signal }) {
      await new Promise((done) => signal.addEventListener('abort', done));
      aborted = signal.aborted;
    },
  });
  const runner = new JobRunner({ db, workers: [hopeless, slow], now: clock.now });
  await enqueue(db, hopeless, {}, { now: clock.now() });
  await enqueue(db, slow, {}, { now: clock.now() });
  expect(await runner.runOnce()).toBe(2);
  const [gone] = await jobsOf(db, 'test.hopeless');
  expect(gone).toMatchObject({ state: 'discarded', attempt: 1 });
  expect(gone?.errors[0]?.error).toContain('the webhook endpoint was deleted');
  const [late] = await jobsOf(db, 'test.slow');
  expect(late).toMatchObject({ state: 'retryable', attempt: 1 });
  expect(late?.errors[0]?.error).toContain('test.slow ran past its timeout of 20 ms');
  expect(aborted).toBe(true);
});

test('a job scheduled later does not run early', async () => {
  const { db } = file;
  const clock = testClock(start);
  const worker = defineWorker({ kind: 'test.later', async perform() {} });
  const runner = new JobRunner({ db, workers: [worker], now: clock.now });
  await enqueue(db, worker, {}, { now: clock.now(), scheduledAt: new Date(clock.now().getTime() + 3_600 * SECOND) });
  expect(await runner.runOnce()).toBe(0);
  clock.advance(3_599 * SECOND);
  expect(await runner.runOnce()).toBe(0);
  clock.advance(SECOND);
  expect(await runner.runOnce()).toBe(1);
  expect((await jobsOf(db, 'test.later'))[0]?.state).toBe('completed');
});

test('runners on separate connections run each of 200 jobs exactly once (one runner on PGlite)', async () => {
  const { db } = file;
  const clock = testClock(start);
  const runs = new Map<number, number>();
  const runners = new Set<string | null>();
  const worker = defineWorker({
    kind: 'test.many',
    async perform(_args, { job, db: jobDb }) {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      runners.add(job.lockedBy);
      // A round trip, so the runners' jobs overlap.
      await jobDb.execute(sql`select 1`);
    },
  });
  const other = await anotherHandle(file.database);
  const handles = file.database.pool ? [db, other.db] : [db];
  const started = handles.map(
    (handle) => new JobRunner({ db: handle, workers: [worker], now: clock.now, pollMs: 20, concurrency: 8 }),
  );
  try {
    await db.transaction(async (tx) => {
      for (let i = 0; i < 200; i++) await enqueue(tx, worker, { i }, { now: clock.now() });
    });
    for (const runner of started) runner.start();
    // Until 200 jobs run.
    await vi.waitUntil(async () => runs.size === 200, { timeout: 30_000, interval: 20 });
    await Promise.all(started.map((runner) => runner.stop()));
  } finally {
    await other.close();
  }
  expect([...runs.values()].every((n) => n === 1)).toBe(true);
  // Every runner took its share.
  expect(runners.size).toBe(handles.length);
  const rows = await jobsOf(db, 'test.many');
  expect(rows).toHaveLength(200);
  expect(rows.every((row) => row.state === 'completed' && row.attempt === 1)).toBe(true);
});

test('a job whose runner died mid-job is reclaimed once its lease expired, and the dead runner cannot end it', async () => {
  const { db } = file;
  const clock = testClock(start);
  const stuck = gate();
  const worker = defineWorker({
    kind: 'test.orphan',
    timeoutMs: 60 * SECOND,
    async perform(_args, { job }) {
      if (job.attempt === 1) await stuck.opened;
    },
  });
  const other = await anotherHandle(file.database);
  const dying = new JobRunner({ db, workers: [worker], now: clock.now, leaseGraceMs: 5 * SECOND });
  const taker = new JobRunner({ db: other.db, workers: [worker], now: clock.now });
  try {
    await enqueue(db, worker, {}, { now: clock.now() });
    expect(await dying.tick()).toBe(1);
    const [held] = await jobsOf(db, 'test.orphan');
    expect(held).toMatchObject({ state: 'executing', attempt: 1, lockedBy: dying.id });
    expect(held?.leaseUntil?.getTime()).toBe(clock.now().getTime() + 65 * SECOND);
    // The lease still holds: nothing to take over.
    clock.advance(64 * SECOND);
    expect(await taker.runOnce()).toBe(0);
    clock.advance(2 * SECOND);
    expect(await taker.runOnce()).toBe(1);
    const [taken] = await jobsOf(db, 'test.orphan');
    expect(taken).toMatchObject({ state: 'completed', attempt: 2, lockedBy: null });
    expect(taken?.errors).toEqual([
      {
        at: new Date(clock.now()).toISOString(),
        attempt: 1,
        error: `the lease of runner ${dying.id} expired: its process stopped or died during the job`,
      },
    ]);
    // The first runner comes back to life and finishes: the job stays as the second runner left it.
    stuck.open();
    await dying.stop();
    expect((await jobsOf(db, 'test.orphan'))[0]).toMatchObject({ state: 'completed', attempt: 2 });
  } finally {
    await other.close();
  }
});

test('stop waits for the running job; one still running past the stop timeout is put back to retry', async () => {
  const { db } = file;
  const clock = testClock(start);
  const gates = [gate(), gate()];
  const worker = defineWorker<{ i: 0 | 1 }>({
    kind: 'test.stopping',
    async perform(args) {
      await gates[args.i]?.opened;
    },
  });
  const runner = new JobRunner({ db, workers: [worker], now: clock.now, pollMs: 20 });
  await enqueue(db, worker, { i: 0 }, { now: clock.now() });
  runner.start();
  // Until the job to start.
  await vi.waitUntil(async () => (await jobsOf(db, 'test.stopping'))[0]?.state === 'executing', {
    timeout: 30_000,
    interval: 20,
  });
  let stopped = false;
  const stopping = runner.stop(30_000).then(() => {
    stopped = true;
  });
  await new Promise((done) => setTimeout(done, 50));
  expect(stopped).toBe(false);
  gates[0]?.open();
  await stopping;
  expect((await jobsOf(db, 'test.stopping'))[0]?.state).toBe('completed');

  await enqueue(db, worker, { i: 1 }, { now: clock.now() });
  runner.start();
  // Until the second job to start.
  await vi.waitUntil(async () => (await jobsOf(db, 'test.stopping'))[1]?.state === 'executing', {
    timeout: 30_000,
    interval: 20,
  });
  await runner.stop(10);
  const [, second] = await jobsOf(db, 'test.stopping');
  expect(second).toMatchObject({ state: 'retryable', attempt: 1, lockedBy: null });
  expect(second?.errors[0]?.error).toMatch(/^Error: the runner stopped before the job finished/);
  gates[1]?.open();
});

test.each([
  [{ kind: 'Retention' }, 'must be "<area>.<work>"'],
  [{ kind: 'test.bad', every: '2w' }, '"2w" is not a job period'],
  [{ kind: 'test.bad', maxAttempts: 0 }, 'maxAttempts must be a whole number of at least 1'],
] as const)('defineWorker(%j) refuses: $1', (spec, expected) => {
  expect(() => defineWorker({ ...(spec as { kind: string }), async perform() {} })).toThrow(expected);
});

test('a runner refuses two workers of one kind, and a period longer than finished jobs are kept', () => {
  const { db } = file;
  const a = defineWorker({ kind: 'test.same', async perform() {} });
  expect(() => new JobRunner({ db, workers: [a, a] })).toThrow('Two workers share the job kind "test.same"');
  const monthly = defineWorker({ kind: 'test.monthly', every: '30d', async perform() {} });
  expect(() => new JobRunner({ db, workers: [monthly] })).toThrow('runs every 30d: at most 7d');
});
