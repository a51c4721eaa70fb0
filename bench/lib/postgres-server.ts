/**
 * The benches' own PostgreSQL 15 server: a cluster made with `initdb` in a temporary directory and started with
 * `pg_ctl` on its own port, set up as a deployment sized for this machine would be (below), so the figures measure
 * the store and not the defaults of a shared development server (128 MB of shared buffers, which on this machine
 * meant reading a 7-day tag facet's 29,000 heap pages from the OS cache on every call: 640 ms against 58 ms with the
 * pages in shared buffers). `BENCH_PG_URL` set: that server is used as it is and nothing is started.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';

const MB = 2 ** 20;

/**
 * The settings of the benches' server, from the machine's memory as the usual guides size them: shared buffers a
 * quarter of the memory (at most 8 GB), the planner told the OS caches half of it, 64 MB per sort or hash, SSD page
 * costs, and checkpoints far enough apart for bulk loads. Durability is PostgreSQL's default (fsync and synchronous
 * commit on), so ingest's figures are a durable commit's.
 */
export function benchPostgresSettings(memoryBytes = totalmem()): Record<string, string> {
  const mb = (bytes: number) => `${Math.max(128, Math.floor(bytes / MB))}MB`;
  return {
    shared_buffers: mb(Math.min(memoryBytes / 4, 8 * 1024 * MB)),
    effective_cache_size: mb(memoryBytes / 2),
    work_mem: '64MB',
    maintenance_work_mem: '1GB',
    random_page_cost: '1.1',
    effective_io_concurrency: '200',
    max_wal_size: '8GB',
    checkpoint_timeout: '15min',
    max_connections: '100',
    listen_addresses: "'127.0.0.1'",
  };
}

/** Debian's PostgreSQL 15 programs, or null where they are not installed. */
function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

/** Runs a PostgreSQL program, as the `postgres` user when this process is root (initdb refuses root). */
function run(bin: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const result = asRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', bin, ...args], { encoding: 'utf8' })
    : spawnSync(bin, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
}

export type BenchPostgres = { url: string; settings: Record<string, string>; stop(): void };

/**
 * Starts the benches' server (or answers `BENCH_PG_URL`'s) and points `BENCH_PG_URL` at its maintenance database,
 * where `postgresDatabase` makes each bench's database. `stop()` stops it and removes its directory.
 */
export function startBenchPostgres(): BenchPostgres {
  const given = process.env.BENCH_PG_URL;
  if (given) return { url: given, settings: {}, stop: () => {} };
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (/usr/lib/postgresql/*/bin): set BENCH_PG_URL to a server.');
  const port = Number(process.env.BENCH_PG_PORT ?? 5439);
  const dir = mkdtempSync(join(process.env.BENCH_PG_DIR ?? tmpdir(), 'spaceguard-bench-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const settings = benchPostgresSettings();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
  ].join(' ');
  try {
    run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8']);
    run(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  process.env.BENCH_PG_URL = url;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      delete process.env.BENCH_PG_URL;
    }
  };
  // A bench stopped with Ctrl-C or a kill stops its server too (and leaves no cluster in the temp dir).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stop();
      process.exit(130);
    });
  }
  process.once('exit', stop);
  return { url, settings, stop };
}

/** The settings as a sentence for BENCHMARKS.md. */
export function describeSettings(settings: Record<string, string>): string {
  const shown = Object.entries(settings).filter(([name]) => name !== 'listen_addresses');
  if (shown.length === 0) return 'the server given in BENCH_PG_URL, as it is set up';
  return `its own PostgreSQL 15 cluster (initdb, started for the run) with ${shown.map(([n, v]) => `${n} = ${v}`).join(', ')}`;
}
