/**
 * The one clock of a server process: the API (`deps.now`) and the job runner read time only through it, so tests
 * move through billing periods by injecting their own. Outside production, `DEV_CLOCK_OFFSET_DAYS` shifts it by
 * whole days (the end-to-end renewal test restarts its servers a month ahead); production always runs on real time.
 */
export type Clock = () => Date;

const DAY_MS = 86_400_000;

/** The clock the environment asks for: real time, or real time shifted by DEV_CLOCK_OFFSET_DAYS outside production. */
export function clockFromEnv(env: Record<string, string | undefined>, production: boolean): Clock {
  const days = Number(env.DEV_CLOCK_OFFSET_DAYS ?? 0);
  if (production || !Number.isFinite(days) || days === 0) return () => new Date();
  const offset = days * DAY_MS;
  return () => new Date(Date.now() + offset);
}
