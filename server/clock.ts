/**
 * The one clock of a server process: the API (`deps.now`) and the job runner read time only through it, so tests
 * move through billing periods by injecting their own. Outside production, `DEV_CLOCK_OFFSET_DAYS` shifts it by
 * whole days (the end-to-end renewal test restarts its servers a month ahead); production always runs on real time.
 */
export type Clock = () => Date;

const DAY_MS = 86_400_000;

/**
 * Real time: the one place the server reads the machine's clock. Everything else takes a `Clock` (deps.now, the job
 * runner's `now`, a worker's `ctx.now`) or a `Date` its caller read from one; nothing reads `new Date()`, `Date.now()`,
 * a column default or SQL `now()` to decide anything (tests/architecture.test.ts holds the code to that).
 */
export const systemClock: Clock = () => new Date();

/** The clock the environment asks for: real time, or real time shifted by DEV_CLOCK_OFFSET_DAYS outside production. */
export function clockFromEnv(env: Record<string, string | undefined>, production: boolean): Clock {
  const days = Number(env.DEV_CLOCK_OFFSET_DAYS ?? 0);
  if (production || !Number.isFinite(days) || days === 0) return systemClock;
  const offset = days * DAY_MS;
  return () => new Date(systemClock().getTime() + offset);
}
