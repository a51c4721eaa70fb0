/**
 * Ingest speed end to end: ModSecurity v3 JSON audit records from the demo generator (about 1 KB each),
 * NDJSON batches of 1 000 with Idempotency-Key, sent by several clients over HTTP to the real API in a
 * child process, from request to committed answer; on PGlite (a temp DATA_DIR) and on PostgreSQL (a
 * database `spaceguard_bench` created and dropped here). Beside it, a raw `COPY ... FROM STDIN` of the
 * same normalised rows into the same table (psql's \copy for PostgreSQL, COPY FROM '/dev/blob' for PGlite).
 * Peak memory is the server process's VmHWM. Nothing here is asserted by tests.
 *
 * `node bench/ingest.ts` prints the markdown section; bench/run.ts includes it. The child is this file
 * with `--serve`.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { NormalisedEvent } from '../contract/events.ts';
import { createTraffic, type ModSecurityRecord } from '../server/demo/traffic.ts';
import { parseModSecurity } from '../server/services/ingest/parse-modsecurity.ts';

const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BATCH = 1000;
const CONCURRENCY = [2, 4];

const ms = (n: number): string => n.toFixed(0);
const load = (): string =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** The events columns a bulk load fills, in COPY order (id comes from its default). */
export const COPY_COLUMNS = [
  'space_id',
  'source_id',
  'time',
  'received_at',
  'dedup_key',
  'ip',
  'country',
  'method',
  'host',
  'path',
  'status',
  'action',
  'severity',
  'rule_ids',
  'tags',
  'message',
  'user_agent',
  'firewall_id',
  'raw',
] as const;

const csvField = (value: string | null): string => (value === null ? '' : `"${value.replace(/"/g, '""')}"`);
const arrayLiteral = (items: (string | number)[]): string =>
  `{${items.map((i) => (typeof i === 'number' ? String(i) : `"${i.replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`;

/** The records normalised by the ingest parser (as the API does), as CSV lines for COPY. */
export function csvRows(records: ModSecurityRecord[], spaceId: string, sourceId: string, receivedAt: Date): string {
  const received = receivedAt.toISOString();
  let out = '';
  for (const record of records) {
    const parsed = parseModSecurity(record);
    if (!parsed.ok) throw new Error(parsed.message);
    const e: NormalisedEvent = parsed.event;
    out += `${[
      spaceId,
      sourceId,
      e.time,
      received,
      csvField(e.dedupKey),
      csvField(e.ip),
      csvField(e.country),
      csvField(e.method),
      csvField(e.host),
      csvField(e.path),
      e.status === null ? '' : String(e.status),
      e.action,
      e.severity,
      csvField(arrayLiteral(e.ruleIds)),
      csvField(arrayLiteral(e.tags)),
      csvField(e.message),
      csvField(e.userAgent),
      e.firewallId ?? '',
      csvField(JSON.stringify(e.raw)),
    ].join(',')}\n`;
  }
  return out;
}

const copySql = (source: string) => `copy events (${COPY_COLUMNS.join(', ')}) from ${source} with (format csv)`;

/** COPY FROM STDIN through psql's \copy (node-postgres has no COPY without an extra package). */
export function copyWithPsql(url: string, csv: string | Iterable<string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', `\\${copySql('stdin')}`], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql \\copy failed: ${stderr}`))));
    void (async () => {
      for (const chunk of typeof csv === 'string' ? [csv] : csv) {
        if (!child.stdin.write(chunk)) await new Promise((r) => child.stdin.once('drain', r));
      }
      child.stdin.end();
    })();
  });
}

/** COPY from an in-memory blob into PGlite. */
export async function copyIntoPglite(pglite: PGlite, csv: string): Promise<void> {
  await pglite.query(copySql(`'/dev/blob'`), [], { blob: new Blob([csv]) });
}

/** True when psql is on the PATH. */
export function hasPsql(): boolean {
  return spawnSync('psql', ['--version']).status === 0;
}

/** A fresh PostgreSQL database on the local server; `drop()` removes it. */
export async function benchDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: PG_ADMIN_URL });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

type Ready = { port: number; token: string; spaceId: string; sourceId: string };

/**
 * The child: the API exactly as `npm start` builds it (createApi, request log to stdout) on
 * DATABASE_URL or DATA_DIR, plus a Business-plan space and a ModSecurity source so the quota never
 * refuses; prints `BENCH_READY {…}`.
 */
async function serveChild(): Promise<void> {
  const { serve } = await import('@hono/node-server');
  const { createApi } = await import('../server/api.ts');
  const { spaces } = await import('../server/db/schema/spaces.ts');
  const { sources } = await import('../server/db/schema/sources.ts');
  const { hashToken, randomToken } = await import('../server/services/shared/tokens.ts');
  const api = await createApi(process.env);
  let ready: Omit<Ready, 'port'> = { token: '', spaceId: '', sourceId: '' };
  // BENCH_SETUP=0: serve a database the parent prepared.
  if (process.env.BENCH_SETUP !== '0') {
    const [space] = await api.database.db.insert(spaces).values({ name: 'Ingest bench', plan: 'business' }).returning();
    const token = randomToken('sgi_');
    const [source] = await api.database.db
      .insert(sources)
      .values({
        spaceId: space?.id ?? '',
        name: 'bench',
        kind: 'modsecurity',
        tokenHash: hashToken(token),
        tokenPrefix: token.slice(0, 8),
      })
      .returning();
    ready = { token, spaceId: space?.id ?? '', sourceId: source?.id ?? '' };
  }
  const server = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
    console.log(`BENCH_READY ${JSON.stringify({ ...ready, port: info.port })}`);
  });
  process.on('SIGTERM', () => server.close(() => void api.close().finally(() => process.exit(0))));
}

export async function startChild(env: Record<string, string>): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--serve'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      if (line.startsWith('BENCH_READY ')) resolve(JSON.parse(line.slice(12)) as Ready);
    });
    child.on('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  return { child, ready };
}

export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
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

type HttpRun = { clients: number; events: number; seconds: number; p50: number; p95: number };

/** Sends NDJSON bodies with `clients` concurrent senders; every batch must be accepted in full. */
async function sendAll(ready: Ready, bodies: string[], clients: number, tag: string): Promise<HttpRun> {
  const url = `http://127.0.0.1:${ready.port}/api/ingest/${ready.token}`;
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < bodies.length) {
        const index = next++;
        const t0 = performance.now();
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-ndjson', 'idempotency-key': `${tag}-${index}` },
          body: bodies[index] ?? '',
        });
        const answer = (await res.json()) as { accepted?: number; errors?: unknown[] };
        latencies.push(performance.now() - t0);
        if (res.status !== 200 || answer.accepted !== BATCH) {
          throw new Error(`batch ${index}: ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    clients,
    events: bodies.length * BATCH,
    seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
  };
}

type BackendResult = {
  label: string;
  runs: HttpRun[];
  peakMb: number;
  copy: { method: string; events: number; seconds: number };
};

async function benchBackend(
  label: string,
  env: Record<string, string>,
  eventsPerRun: number,
  copy: (csv: string) => Promise<{ method: string }>,
  truncate: () => Promise<void>,
): Promise<BackendResult> {
  // Records for every run plus the warm-up, from one generator so every unique_id differs.
  const traffic = createTraffic(1);
  const to = new Date();
  const from = new Date(to.getTime() - 7 * 86_400_000);
  const batches = (n: number) => {
    const records = traffic.between(from, to, n);
    const bodies: string[] = [];
    for (let i = 0; i < records.length; i += BATCH) {
      bodies.push(
        records
          .slice(i, i + BATCH)
          .map((r) => JSON.stringify(r))
          .join('\n'),
      );
    }
    return { records, bodies };
  };
  const warmup = batches(3 * BATCH);
  const sets = CONCURRENCY.map(() => batches(eventsPerRun));

  const { child, ready } = await startChild(env);
  const pid = child.pid ?? 0;
  const runs: HttpRun[] = [];
  let peakMb = Number.NaN;
  try {
    await sendAll(ready, warmup.bodies, 1, 'warmup');
    for (const [i, clients] of CONCURRENCY.entries()) {
      runs.push(await sendAll(ready, sets[i]?.bodies ?? [], clients, `run${i}`));
    }
  } finally {
    peakMb = memoryMb(pid, 'VmHWM');
    await stopChild(child);
  }

  // The raw baseline: the same normalised rows of the last run, COPY'd into the emptied table.
  await truncate();
  const last = sets.at(-1)?.records ?? [];
  const csv = csvRows(last, ready.spaceId, ready.sourceId, new Date());
  const t0 = performance.now();
  const { method } = await copy(csv);
  const copySeconds = (performance.now() - t0) / 1000;
  return { label, runs, peakMb, copy: { method, events: last.length, seconds: copySeconds } };
}

async function pgliteBackend(eventsPerRun: number): Promise<BackendResult> {
  const dir = mkdtempSync(join(tmpdir(), 'sg-bench-ingest-'));
  try {
    let pglite: PGlite | undefined;
    const open = async () => {
      pglite ??= await PGlite.create(dir);
      return pglite;
    };
    const result = await benchBackend(
      'PGlite (DATA_DIR)',
      { DATA_DIR: dir, DATABASE_URL: '' },
      eventsPerRun,
      async (csv) => {
        await copyIntoPglite(await open(), csv);
        return { method: "COPY FROM '/dev/blob' (CSV)" };
      },
      async () => {
        await (await open()).exec('truncate events');
      },
    );
    await pglite?.close();
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresBackend(eventsPerRun: number): Promise<BackendResult> {
  const database = await benchDatabase('spaceguard_bench');
  try {
    const exec = async (sql: string) => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query(sql);
      await client.end();
    };
    return await benchBackend(
      'PostgreSQL 15 (DATABASE_URL)',
      { DATABASE_URL: database.url },
      eventsPerRun,
      async (csv) => {
        if (!hasPsql()) throw new Error('psql is needed for the raw COPY baseline');
        await copyWithPsql(database.url, csv);
        return { method: 'COPY FROM STDIN (psql \\copy, CSV)' };
      },
      () => exec('truncate events'),
    );
  } finally {
    await database.drop();
  }
}

/** Runs both backends and answers the markdown section. */
export async function benchIngest(): Promise<string> {
  const before = load();
  const sample = createTraffic(1).between(new Date(Date.now() - 86_400_000), new Date(), 2000);
  const bytes = sample.reduce((sum, r) => sum + JSON.stringify(r).length + 1, 0) / sample.length;
  const results = [
    await pgliteBackend(Number(process.env.BENCH_INGEST_PGLITE ?? 30_000)),
    await postgresBackend(Number(process.env.BENCH_INGEST_PG ?? 100_000)),
  ];
  const rows: string[] = [];
  for (const r of results) {
    const copyRate = r.copy.events / r.copy.seconds;
    for (const run of r.runs) {
      const rate = run.events / run.seconds;
      rows.push(
        `| ${r.label} | ${run.clients} | ${run.events.toLocaleString('en')} | ${Math.round(rate).toLocaleString('en')} | ${ms(run.p50)} / ${ms(run.p95)} | ${Math.round(copyRate).toLocaleString('en')} | ${(rate / copyRate).toFixed(2)} | ${Math.round(r.peakMb)} |`,
      );
    }
  }
  return [
    '## Ingest',
    '',
    `End to end: ModSecurity v3 JSON audit records from the demo generator (server/demo/traffic.ts, ${Math.round(bytes)} bytes each on average), NDJSON batches of ${BATCH.toLocaleString('en')} with Idempotency-Key, sent over HTTP by concurrent clients to the API in a child process (createApi + @hono/node-server, request log on), each batch timed from request to committed answer. Raw bulk: the same rows as normalised by the ingest parser, loaded with ${results.map((r) => `${r.copy.method} on ${r.label.split(' (')[0]}`).join(' and ')} into the same (emptied) table, parsing excluded. Peak memory: the server process's VmHWM. Targets: at least 0.5 of raw COPY and 20 000 events/s on PostgreSQL. Load average before: ${before}.`,
    '',
    '| database | clients | events | events/s | batch ms p50 / p95 | raw COPY events/s | ratio | server peak RSS MB |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

if (import.meta.main) {
  if (process.argv[2] === '--serve') await serveChild();
  else console.log(await benchIngest());
}
