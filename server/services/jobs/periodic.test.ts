import { sql } from 'drizzle-orm';
import { expect, test, vi } from 'vitest';
import { jobs } from '../../db/schema/jobs.ts';
import { anotherHandle } from '../../test/harness.ts';
import { databaseOfFile, jobsOf, testClock } from '../../test/jobs.ts';
import { type WindowArgs, windowOf } from './periodic.ts';
import { JobRunner } from './runner.ts';
import { defineWorker } from './worker.ts';
import { JOBS_KEPT_DAYS, pruneJobs, pruneJobsWorker } from './workers/prune-worker.ts';

const file = databaseOfFile();

const DAY = 86_400_000;

/** A daily worker that notes the windows it ran. */
function daily(kind: string) {
  const windows: string[] = [];
  const worker = defineWorker<WindowArgs>({
    kind,
    every: '1d',
    async perform(args) {
      windows.push(args.window);
    },
  });
  return { worker, windows };
}

test.each([
  ['1d', '2026-11-23T10:17:42Z', '2026-11-23T00:00:00.000Z', 'k.w:2026-11-23'],
  // Windows count from the Unix epoch: 2026-11-23 starts an even day.
  ['2d', '2026-11-24T23:59:59Z', '2026-11-23T00:00:00.000Z', 'k.w:2026-11-23'],
  ['1h', '2026-11-23T10:17:42Z', '2026-11-23T10:00:00.000Z', 'k.w:2026-11-23T10:00:00.000Z'],
  ['15m', '2026-11-23T10:17:42Z', '2026-11-23T10:15:00.000Z', 'k.w:2026-11-23T10:15:00.000Z'],
] as const)('every %s at %s: the window starts at %s, key $3', (every, at, start, key) => {
  expect(windowOf('k.w', every, new Date(at))).toEqual({ start: new Date(start), key });
});

test('each window of a periodic worker is enqueued and run once across two runners', async () => {
  const { db } = file;
  const clock = testClock('2026-11-23T10:00:00Z');
  const { worker, windows } = daily('test.daily');
  const other = await anotherHandle(file.database);
  const runners = [db, other.db].map((handle) => new JobRunner({ db: handle, workers: [worker], now: clock.now }));
  const poll = async () => (await Promise.all(runners.map((r) => r.runOnce()))).reduce((a, b) => a + b, 0);
  try {
    expect(await poll()).toBe(1);
    clock.advance(3_600_000);
    expect(await poll()).toBe(0);
    clock.set('2026-11-24T00:00:01Z');
    expect(await poll()).toBe(1);
    expect(await poll()).toBe(0);
  } finally {
    await other.close();
  }
  expect(windows).toEqual(['2026-11-23T00:00:00.000Z', '2026-11-24T00:00:00.000Z']);
  const rows = await jobsOf(db, 'test.daily');
  expect(rows.map((r) => [r.uniqueKey, r.state, r.scheduledAt.toISOString()])).toEqual([
    ['test.daily:2026-11-23', 'completed', '2026-11-23T00:00:00.000Z'],
    ['test.daily:2026-11-24', 'completed', '2026-11-24T00:00:00.000Z'],
  ]);
});

test('a window missed while every process was down runs as soon as a runner starts', async () => {
  const { db } = file;
  const clock = testClock('2026-11-23T10:00:00Z');
  const { worker, windows } = daily('test.nightly');
  // Every process was down at midnight: the day's window runs at start, not at the next midnight.
  const runner = new JobRunner({ db, workers: [worker], now: clock.now, pollMs: 20 });
  runner.start();
  // Until the missed window to run.
  await vi.waitUntil(() => windows.length === 1, { timeout: 30_000, interval: 20 });
  await runner.stop();
  // Down for the whole next day as well: back on the 25th, the current window runs at once (not the 24th's).
  clock.set('2026-11-25T08:00:00Z');
  runner.start();
  // Until the current window to run.
  await vi.waitUntil(() => windows.length === 2, { timeout: 30_000, interval: 20 });
  await runner.stop();
  expect(windows).toEqual(['2026-11-23T00:00:00.000Z', '2026-11-25T00:00:00.000Z']);
});

test('pruning deletes jobs finished more than a week ago, and itself runs as a daily job', async () => {
  const { db } = file;
  const now = new Date('2026-11-23T10:00:00Z');
  const ago = (days: number) => new Date(now.getTime() - days * DAY);
  await db.insert(jobs).values([
    { kind: 'test.old', state: 'completed', completedAt: ago(8), scheduledAt: ago(8), insertedAt: ago(8) },
    { kind: 'test.old', state: 'discarded', discardedAt: ago(9), scheduledAt: ago(9), insertedAt: ago(9) },
    { kind: 'test.old', state: 'cancelled', cancelledAt: ago(30), scheduledAt: ago(30), insertedAt: ago(30) },
    { kind: 'test.recent', state: 'completed', completedAt: ago(6), scheduledAt: ago(6), insertedAt: ago(6) },
    // Waiting or running jobs are never pruned, however old.
    { kind: 'test.waiting', state: 'available', scheduledAt: ago(40), insertedAt: ago(40) },
    { kind: 'test.waiting', state: 'retryable', scheduledAt: ago(40), insertedAt: ago(40), attempt: 1 },
  ]);
  expect(await pruneJobs(db, ago(JOBS_KEPT_DAYS))).toBe(3);
  const runner = new JobRunner({ db, workers: [pruneJobsWorker], now: () => now });
  expect(await runner.runOnce()).toBe(1);
  const left = await db.execute(
    sql`select kind, state from jobs where kind in ('test.old', 'test.recent', 'test.waiting') order by kind, state`,
  );
  expect((left as unknown as { rows: unknown[] }).rows).toEqual([
    { kind: 'test.recent', state: 'completed' },
    { kind: 'test.waiting', state: 'available' },
    { kind: 'test.waiting', state: 'retryable' },
  ]);
  expect((await jobsOf(db, 'jobs.prune')).map((j) => [j.uniqueKey, j.state])).toEqual([
    ['jobs.prune:2026-11-23', 'completed'],
  ]);
});
