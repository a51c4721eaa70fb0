/** Timing loops: sequential samples after a warm-up, and a fixed amount of work spread over concurrent workers. */
import { performance } from 'node:perf_hooks';
import { p50p95 } from './stats.ts';

/** Latency of one call: p50 and p95 in ms over `runs` samples. */
export type Latency = { runs: number; p50: number; p95: number };

/**
 * Runs `once` `warmup` times untimed, then up to `runs` times timed, one after the other. With `budgetMs`, stops
 * early (after at least 5 samples) once that much time has gone, so one slow call cannot hold a bench for minutes.
 */
export async function sampleLatency(
  once: () => Promise<unknown>,
  options: { warmup: number; runs: number; budgetMs?: number },
): Promise<Latency> {
  for (let i = 0; i < options.warmup; i++) await once();
  const samples: number[] = [];
  const started = performance.now();
  const budget = options.budgetMs ?? Number.POSITIVE_INFINITY;
  while (samples.length < options.runs && (samples.length < 5 || performance.now() - started < budget)) {
    const t0 = performance.now();
    await once();
    samples.push(performance.now() - t0);
  }
  return { runs: samples.length, ...p50p95(samples) };
}

/** Throughput and latency of `count` tasks run by `concurrency` workers. */
export type Throughput = { count: number; seconds: number; perSecond: number; p50: number; p95: number };

/** Runs `task(0)` … `task(count - 1)` with `concurrency` in flight, timing each and the whole. */
export async function runConcurrently(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<unknown>,
): Promise<Throughput> {
  let next = 0;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const index = next++;
        const t0 = performance.now();
        await task(index);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { count, seconds, perSecond: count / seconds, ...p50p95(latencies) };
}

/** Seconds `work` took, with its result. */
export async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; result: T }> {
  const t0 = performance.now();
  const result = await work();
  return { seconds: (performance.now() - t0) / 1000, result };
}
