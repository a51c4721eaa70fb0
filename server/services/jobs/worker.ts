import type { Db } from '../../db/database.ts';
import type { JobRow } from '../../db/schema/jobs.ts';
import type { AppDeps } from '../../deps.ts';
import type { Logger } from '../shared/logger.ts';

/** A period of a periodic worker: minutes, hours or days (`'15m'`, `'1h'`, `'1d'`). */
export type Every = `${number}${'m' | 'h' | 'd'}`;

/** What `perform` gets beside its arguments. */
export type JobContext = {
  db: Db;
  /** The runner's clock (`deps.now` in the API), so tests move time instead of waiting. */
  now: () => Date;
  log: Logger;
  /** The claimed row: its id, attempt (1 on the first run), unique key, space. */
  job: JobRow;
  /** The API's dependencies: the mailer, the configuration (the same builder as the API's). */
  deps: AppDeps;
  /** Aborted when the attempt runs past the worker's `timeoutMs` or the runner stops without waiting for it. */
  signal: AbortSignal;
};

/** One kind of background work, as an area declares it with `defineWorker`. */
export type Worker<Args = unknown> = {
  /** The job's `kind`, `<area>.<work>`: `events.retention`. */
  kind: string;
  queue: string;
  maxAttempts: number;
  /** Milliseconds to wait before the attempt after `attempt` failed. */
  backoff: (attempt: number) => number;
  /** An attempt running longer fails (and is retried); the lease a dead runner holds ends this long after. */
  timeoutMs: number;
  /** Set for a periodic worker: one job per window of this length, counted from the Unix epoch in UTC. */
  every?: Every;
  perform(args: Args, ctx: JobContext): Promise<void>;
};

/** Throw from `perform` to give up at once: the job is discarded with this message, never retried. */
export class DiscardJob extends Error {}

const units = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** The length of a period in milliseconds; throws on anything but a positive whole number of m, h or d. */
export function periodMs(every: string): number {
  const match = /^([1-9][0-9]*)([mhd])$/.exec(every);
  if (!match)
    throw new Error(`"${every}" is not a job period: write a whole number of minutes, hours or days (15m, 1h, 1d).`);
  return Number(match[1]) * units[match[2] as keyof typeof units];
}

/**
 * Oban's default shape: 15 s doubled at each failed attempt, at most an hour, plus up to 10 % of jitter so the
 * retries of many jobs that failed together (a provider down) do not come back together.
 */
export function defaultBackoff(attempt: number): number {
  const base = Math.min(3_600_000, 15_000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (1 + Math.random() * 0.1));
}

/** Declares a kind of background work with its defaults (queue `default`, 20 attempts, a minute per attempt). */
export function defineWorker<Args = unknown>(spec: {
  kind: string;
  queue?: string;
  maxAttempts?: number;
  backoff?: (attempt: number) => number;
  timeoutMs?: number;
  every?: Every;
  perform(args: Args, ctx: JobContext): Promise<void>;
}): Worker<Args> {
  if (!/^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$/.test(spec.kind))
    throw new Error(`Job kind "${spec.kind}" must be "<area>.<work>" in lower case, like "events.retention".`);
  if (spec.every) periodMs(spec.every);
  const maxAttempts = spec.maxAttempts ?? 20;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
    throw new Error(`Job kind "${spec.kind}": maxAttempts must be a whole number of at least 1, not ${maxAttempts}.`);
  return {
    kind: spec.kind,
    queue: spec.queue ?? 'default',
    maxAttempts,
    backoff: spec.backoff ?? defaultBackoff,
    timeoutMs: spec.timeoutMs ?? 60_000,
    ...(spec.every ? { every: spec.every } : {}),
    perform: spec.perform,
  };
}
