/**
 * A private nginx: its own prefix, configuration, pid file, temporary folders and logs in the state dir, started with
 * `-p DIR -c FILE -e DIR/logs/error.log` so it never opens /var/log/nginx or the system's configuration, run in the
 * foreground (`daemon off`) as the connector's child so its PID is known, tested with `nginx -t`, reloaded with
 * SIGHUP to that PID (what `nginx -s reload` sends) and stopped by PID, workers included.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { sleep } from './audit-tailer.ts';

const run = promisify(execFile);

/** Where the private nginx lives; all paths absolute. */
export type NginxPaths = {
  /** The nginx binary (`nginx` on PATH, /usr/sbin/nginx by default). */
  binary: string;
  /** `-p`: the prefix, the state dir. */
  prefix: string;
  /** `-e`: nginx's error log before the configuration's own `error_log` takes over. */
  errorLog: string;
  /** The `pid` the configuration names. */
  pidFile: string;
};

/** What `nginx -t` said: ok, or the message that names what is wrong. */
export type TestResult = { ok: true } | { ok: false; message: string };

/** Finds nginx: $NGINX, then PATH, then /usr/sbin/nginx. */
export function findNginx(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NGINX) return env.NGINX;
  for (const folder of (env.PATH ?? '').split(':').filter(Boolean)) {
    if (existsSync(`${folder}/nginx`)) return `${folder}/nginx`;
  }
  return '/usr/sbin/nginx';
}

/** The private nginx of one state dir. */
export class PrivateNginx {
  readonly paths: NginxPaths;
  #child: ChildProcess | null = null;
  #exited: Promise<void> = Promise.resolve();
  #output = '';

  constructor(paths: NginxPaths) {
    this.paths = paths;
  }

  /** The master's PID while it runs. */
  get pid(): number | null {
    return this.#child?.exitCode === null && this.#child.signalCode === null ? (this.#child.pid ?? null) : null;
  }

  /** Resolves when the master exits (stopped, or crashed: the connector then stops too). */
  get exited(): Promise<void> {
    return this.#exited;
  }

  /** `nginx -t` on a configuration file: the module, the CRS and every compiled file are loaded and checked. */
  async test(confFile: string): Promise<TestResult> {
    try {
      await run(this.paths.binary, [...this.#args(confFile), '-t', '-q'], { timeout: 60_000 });
      return { ok: true };
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr ?? '';
      return { ok: false, message: cleanMessage(stderr) || (error instanceof Error ? error.message : String(error)) };
    }
  }

  /**
   * Starts nginx on a configuration (which must say `daemon off;` and name `paths.pidFile`), after stopping an nginx
   * a previous connector run left on this state dir; resolves once the master runs and its workers are up.
   */
  async start(confFile: string): Promise<void> {
    await stopLeftover(this.paths.pidFile, this.paths.prefix);
    this.#output = '';
    const child = spawn(this.paths.binary, this.#args(confFile), { stdio: ['ignore', 'ignore', 'pipe'] });
    this.#child = child;
    child.stderr?.on('data', (chunk: Buffer) => {
      this.#output = (this.#output + chunk.toString()).slice(-8000);
    });
    this.#exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const pid = child.pid;
    for (let waited = 0; waited < 10_000; waited += 50) {
      if (this.pid === null || pid === undefined) {
        throw new Error(`nginx did not start: ${cleanMessage(this.#output) || `exit ${child.exitCode}`}`);
      }
      if (workersOf(pid).length > 0 && readPid(this.paths.pidFile) === pid) return;
      await sleep(50);
    }
    throw new Error('nginx did not start its workers within 10 s');
  }

  /** Resolves once `host:port` accepts a connection (nginx listens), or throws after `ms`. */
  async waitListening(host: string, port: number, ms = 10_000): Promise<void> {
    for (let waited = 0; waited < ms; waited += 50) {
      if (await canConnect(host, port)) return;
      if (this.pid === null) throw new Error(`nginx exited: ${cleanMessage(this.#output)}`);
      await sleep(50);
    }
    throw new Error(`nginx does not accept connections on ${host}:${port}`);
  }

  /**
   * Reloads the running nginx (SIGHUP to the master's PID, as `nginx -s reload` with the private pid file does) and
   * resolves once new workers run, so "applied" means the new configuration answers; throws when no new worker
   * appears (nginx kept the old configuration and says why in the error log). Waits (within `ms`) until the old
   * workers stop accepting too, so that no new or kept-alive connection is answered by the old configuration.
   */
  async reload(ms = 10_000): Promise<void> {
    const pid = this.pid;
    if (pid === null) throw new Error('nginx is not running');
    const before = new Set(workersOf(pid));
    process.kill(pid, 'SIGHUP');
    const deadline = performance.now() + ms;
    while (!workersOf(pid).some((worker) => !before.has(worker))) {
      if (performance.now() > deadline)
        throw new Error('nginx started no new worker after the reload; see its error log');
      if (this.pid === null) throw new Error(`nginx exited on reload: ${cleanMessage(this.#output)}`);
      await sleep(10);
    }
    // Old workers stop accepting (and close idle kept-alive connections) as they turn to "shutting down"; their exit
    // comes later (freeing the rules takes a while, a long request keeps one longer) and is not waited for.
    const accepting = () => workersOf(pid).some((worker) => before.has(worker) && !isShuttingDown(worker));
    while (performance.now() < deadline && accepting()) await sleep(10);
  }

  /** Stops nginx gracefully (SIGQUIT), then by force after `ms`; resolves once the master and its workers are gone. */
  async stop(ms = 10_000): Promise<void> {
    const pid = this.pid;
    if (pid === null) return;
    const workers = workersOf(pid);
    process.kill(pid, 'SIGQUIT');
    const done = await Promise.race([this.#exited.then(() => true), sleep(ms).then(() => false)]);
    if (!done) {
      process.kill(pid, 'SIGKILL');
      await this.#exited;
    }
    // Workers normally leave with their master; one that outlived a killed master goes by its own PID.
    for (const worker of workers) {
      if (isNginx(worker)) process.kill(worker, 'SIGKILL');
    }
    this.#child = null;
  }

  /** The worker PIDs of the running master (for tests and the status line). */
  workers(): number[] {
    return this.pid === null ? [] : workersOf(this.pid);
  }

  #args(confFile: string): string[] {
    return ['-p', `${this.paths.prefix}/`, '-c', confFile, '-e', this.paths.errorLog];
  }
}

/** nginx -t's message without its prefixes and the closing "test failed" line. */
function cleanMessage(stderr: string): string {
  return stderr
    .split('\n')
    .map((line) => line.replace(/^nginx: /, '').trim())
    .filter((line) => line !== '' && !/configuration file .* test failed$/.test(line))
    .join('\n')
    .slice(0, 3900);
}

/** The PID in a pid file, or null. */
function readPid(pidFile: string): number | null {
  try {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** The processes whose parent is `pid` (nginx's workers and cache helpers), read from /proc. */
export function workersOf(pid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command (which may hold spaces) in parentheses: state, then the parent's PID.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** True once an old nginx worker has begun its graceful exit (its title says so, set as it closes its sockets). */
function isShuttingDown(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('shutting down');
  } catch {
    return true;
  }
}

/** True while a process runs nginx (and is not a zombie), by its PID. */
export function isNginx(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('nginx');
  } catch {
    return false;
  }
}

/** A previous connector killed with -9 leaves its nginx running: stop that one (only if it runs on this prefix). */
async function stopLeftover(pidFile: string, prefix: string): Promise<void> {
  const pid = readPid(pidFile);
  if (pid === null || !isNginx(pid)) return;
  let cmdline = '';
  try {
    // nginx rewrites its title: "nginx: master process /usr/sbin/nginx -p DIR/ -c …".
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return;
  }
  if (!cmdline.includes(` -p ${prefix}/ `)) return;
  const workers = workersOf(pid);
  process.kill(pid, 'SIGQUIT');
  for (let waited = 0; waited < 10_000 && isNginx(pid); waited += 50) await sleep(50);
  for (const leftover of [pid, ...workers]) if (isNginx(leftover)) process.kill(leftover, 'SIGKILL');
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
