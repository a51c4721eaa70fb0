/** Servers the benches start as child processes: spawn, wait until ready, read their memory, stop them. */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

/** Starts `node <script> ...args` with the pinned Node running the bench and extra environment. */
export function spawnNode(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
  stdout: 'ignore' | 'pipe' = 'ignore',
): ChildProcess {
  return spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, stdout === 'pipe' ? 'inherit' : 'ignore'],
  });
}

/** Resolves once `url` answers 2xx (polling every 100 ms); kills the child and throws after `seconds`. */
export async function waitForUrl(child: ChildProcess, url: string, seconds = 10): Promise<void> {
  for (let waited = 0; waited < seconds * 1000; waited += 100) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`The server did not answer ${url} within ${seconds} s.`);
}

/** The rest of the first stdout line of the child that starts with `prefix`; rejects if the child exits first. */
export function waitForLine(child: ChildProcess, prefix: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      if (line.startsWith(prefix)) resolve(line.slice(prefix.length));
    });
    child.on('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
}

/** Sends SIGTERM to the child (by its PID) and resolves once it has exited. */
export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Resident memory of a process in MB (VmRSS, or VmHWM for the peak), from /proc. */
export function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

/** CPU time a process has used so far (user + system, from /proc/PID/stat), in seconds; NaN once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}
