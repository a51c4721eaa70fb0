import type { Executor } from '../../db/database.ts';
import { enqueue } from './enqueue.ts';
import { type Every, periodMs, type Worker } from './worker.ts';

/** The arguments of a periodic job: the start of its window, ISO 8601. */
export type WindowArgs = { window: string };

/**
 * The window of `every` that holds `now`, counted from the Unix epoch in UTC (so `1d` windows start at midnight
 * UTC), and its unique key: `events.retention:2026-11-23` for whole days, the full start instant otherwise.
 */
export function windowOf(kind: string, every: Every, now: Date): { start: Date; key: string } {
  const length = periodMs(every);
  const start = new Date(now.getTime() - (now.getTime() % length));
  const label = length % 86_400_000 === 0 ? start.toISOString().slice(0, 10) : start.toISOString();
  return { start, key: `${kind}:${label}` };
}

/**
 * Enqueues the window holding `now` of a periodic worker, scheduled at the window's start (so it is due at once):
 * every runner does so, the unique key keeps one job per window, and a runner that starts after a window in which
 * every process was down enqueues the current one and runs it. Answers the window's key and whether it was new.
 */
export async function enqueueWindow(
  db: Executor,
  worker: Worker<WindowArgs>,
  now: Date,
): Promise<{ key: string; inserted: boolean }> {
  if (!worker.every) throw new Error(`Job kind "${worker.kind}" is not periodic: give it "every".`);
  const { start, key } = windowOf(worker.kind, worker.every, now);
  const { inserted } = await enqueue(
    db,
    worker,
    { window: start.toISOString() },
    { now, scheduledAt: start, uniqueKey: key },
  );
  return { key, inserted };
}
