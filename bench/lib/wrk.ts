/** Debian's `wrk` as the benches' load generator: one run against a URL, its requests per second and latencies. */
import { execFile, spawnSync } from 'node:child_process';

/** What one wrk run measured: requests per second, latency percentiles in ms, and the answers that were not 2xx/3xx. */
export type WrkResult = { rps: number; p50: number; p99: number; requests: number; non2xx: number; errors: number };

/** True when `wrk` is on the PATH. */
export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

/** A latency as wrk prints it (`512.00us`, `1.23ms`, `2.01s`) in ms. */
function toMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) return Number.NaN;
  const factor = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2] as 'us' | 'ms' | 's' | 'm'];
  return Number(match[1]) * factor;
}

/** Reads wrk's `--latency` report. */
export function parseWrk(output: string): WrkResult {
  const percentile = (p: string) => toMs(new RegExp(`^\\s*${p}%\\s+(\\S+)`, 'm').exec(output)?.[1] ?? '');
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? Number.NaN),
    p50: percentile('50'),
    p99: percentile('99'),
    requests: Number(/(\d+) requests in/.exec(output)?.[1] ?? 0),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    errors: socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

/**
 * Runs `wrk --latency` for `seconds` with `connections` kept-alive connections on `threads` threads (and a Lua script);
 * a request counts as a timeout after 10 s (wrk's default is 2 s, which a slow WAF under load can reach).
 */
export function runWrk(
  url: string,
  options: { seconds: number; connections: number; threads: number; script?: string },
): Promise<WrkResult> {
  const args = [
    '--latency',
    '--timeout',
    '10s',
    '-t',
    String(options.threads),
    '-c',
    String(options.connections),
    '-d',
    `${options.seconds}s`,
  ];
  if (options.script) args.push('-s', options.script);
  return new Promise((resolve, reject) => {
    execFile('wrk', [...args, url], { timeout: (options.seconds + 30) * 1000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`wrk ${url}: ${error.message} ${stderr}`));
      else resolve(parseWrk(stdout));
    });
  });
}
