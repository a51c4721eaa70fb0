/**
 * Ingest speed end to end: ModSecurity v3 JSON audit records from the demo generator (about 1 KB each),
 * NDJSON batches of 1 000 with Idempotency-Key, sent by several clients over HTTP to the real API in a
 * child process, from request to committed answer; on PGlite (a temp DATA_DIR) and on PostgreSQL (a
 * database `spaceguard_bench` created and dropped here). Beside it, a raw `COPY ... FROM STDIN` of the
 * same normalised rows into the same tables (`events` and the raw records' `event_raw`, with psql's \copy for
 * PostgreSQL, both tables side by side, and COPY FROM '/dev/blob' for PGlite), then the rollups rebuilt from them
 * (ingest maintains the rollups in its own statement; COPY does not).
 * Peak memory is the server process's VmHWM. Nothing here is asserted by tests.
 *
 * `node bench/ingest.ts` prints the markdown section; bench/run.ts includes it. The child is
 * bench/lib/api-server.ts.
 */
import pg from 'pg';
import { type Database, openDatabase } from '../server/db/database.ts';
import { createTraffic } from '../server/demo/traffic.ts';
import { rebuildRollups } from '../server/services/events/rollups.ts';
import { type Ready, startApiServer } from './lib/api-server.ts';
import { type CopyCsv, copyEventsWithPsql, copyIntoPglite, csvRows } from './lib/copy-events.ts';
import { hasPsql, postgresDatabase, tempDir } from './lib/databases.ts';
import { count, loadAverage, ms, table } from './lib/format.ts';
import { memoryMb, stopProcess } from './lib/processes.ts';
import { runConcurrently, timed } from './lib/timing.ts';

const BATCH = 1000;
const CONCURRENCY = [2, 4, 8];
/** Every table a load writes, emptied before the raw baseline. */
const TABLES = 'events, event_raw, event_rollup_minute, event_rollup_hour, event_rollup_day';

type HttpRun = { clients: number; events: number; seconds: number; p50: number; p95: number };

/** Sends NDJSON bodies with `clients` concurrent senders; every batch must be accepted in full. */
async function sendAll(ready: Ready, bodies: string[], clients: number, tag: string): Promise<HttpRun> {
  const url = `http://127.0.0.1:${ready.port}/api/ingest/${ready.token}`;
  const run = await runConcurrently(bodies.length, clients, async (index) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'idempotency-key': `${tag}-${index}` },
      body: bodies[index] ?? '',
    });
    const answer = (await res.json()) as { accepted?: number; errors?: unknown[] };
    if (res.status !== 200 || answer.accepted !== BATCH) {
      throw new Error(`batch ${index}: ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
    }
  });
  return { clients, events: bodies.length * BATCH, seconds: run.seconds, p50: run.p50, p95: run.p95 };
}

type BackendResult = {
  label: string;
  runs: HttpRun[];
  peakMb: number;
  copy: { method: string; events: number; seconds: number; rollupSeconds: number };
};

async function benchBackend(
  label: string,
  env: Record<string, string>,
  eventsPerRun: number,
  copy: (csv: CopyCsv) => Promise<{ method: string }>,
  rebuild: () => Promise<void>,
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

  const { child, ready } = await startApiServer(env);
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
    await stopProcess(child);
  }

  // The raw baseline: the same normalised rows of the last run, COPY'd into the emptied tables, then the rollups.
  await truncate();
  const last = sets.at(-1)?.records ?? [];
  const csv = csvRows(last, ready.spaceId, ready.sourceId, new Date());
  const { seconds, result } = await timed(() => copy(csv));
  const { seconds: rollupSeconds } = await timed(rebuild);
  return { label, runs, peakMb, copy: { method: result.method, events: last.length, seconds, rollupSeconds } };
}

async function pgliteBackend(eventsPerRun: number): Promise<BackendResult> {
  const dir = tempDir('sg-bench-ingest-');
  try {
    // Opened only once the server has stopped (PGlite allows one process per data directory).
    let opened: Database | undefined;
    const open = async () => {
      opened ??= await openDatabase({ dataDir: dir.path });
      return opened;
    };
    const pglite = async () => {
      const db = (await open()).pglite;
      if (!db) throw new Error('PGlite was not opened on this thread');
      return db;
    };
    const result = await benchBackend(
      'PGlite (DATA_DIR)',
      { DATA_DIR: dir.path, DATABASE_URL: '' },
      eventsPerRun,
      async (csv) => {
        await copyIntoPglite(await pglite(), 'events', csv.events);
        await copyIntoPglite(await pglite(), 'event_raw', csv.event_raw);
        return { method: "COPY FROM '/dev/blob' (CSV, one table after the other)" };
      },
      async () => {
        await rebuildRollups((await open()).db);
      },
      async () => {
        await (await pglite()).exec(`truncate ${TABLES}`);
      },
    );
    await opened?.close();
    return result;
  } finally {
    dir.remove();
  }
}

async function postgresBackend(eventsPerRun: number): Promise<BackendResult> {
  const database = await postgresDatabase('spaceguard_bench');
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
        await copyEventsWithPsql(database.url, [csv]);
        return { method: 'COPY FROM STDIN (psql \\copy, CSV, both tables side by side)' };
      },
      async () => {
        const opened = await openDatabase({ url: database.url });
        try {
          await rebuildRollups(opened.db);
        } finally {
          await opened.close();
        }
      },
      () => exec(`truncate ${TABLES}`),
    );
  } finally {
    await database.drop();
  }
}

/** Runs both backends and answers the markdown section. */
export async function benchIngest(): Promise<string> {
  const before = loadAverage();
  const sample = createTraffic(1).between(new Date(Date.now() - 86_400_000), new Date(), 2000);
  const bytes = sample.reduce((sum, r) => sum + JSON.stringify(r).length + 1, 0) / sample.length;
  const results = [
    await pgliteBackend(Number(process.env.BENCH_INGEST_PGLITE ?? 30_000)),
    await postgresBackend(Number(process.env.BENCH_INGEST_PG ?? 100_000)),
  ];
  const rows: string[][] = [];
  for (const r of results) {
    const copyRate = r.copy.events / r.copy.seconds;
    for (const run of r.runs) {
      const rate = run.events / run.seconds;
      rows.push([
        r.label,
        String(run.clients),
        count(run.events),
        count(rate),
        `${ms(run.p50, 0)} / ${ms(run.p95, 0)}`,
        count(copyRate),
        (rate / copyRate).toFixed(2),
        count(r.copy.events / (r.copy.seconds + r.copy.rollupSeconds)),
        String(Math.round(r.peakMb)),
      ]);
    }
  }
  return [
    '## Ingest',
    '',
    `End to end: ModSecurity v3 JSON audit records from the demo generator (server/demo/traffic.ts, ${Math.round(bytes)} bytes each on average), NDJSON batches of ${BATCH.toLocaleString('en')} with Idempotency-Key, sent over HTTP by concurrent clients to the API in a child process (createApi + @hono/node-server, request log on), each batch timed from request to committed answer. Raw bulk: the same rows as normalised by the ingest parser, loaded with ${results.map((r) => `${r.copy.method} on ${r.label.split(' (')[0]}`).join(' and ')} into the same (emptied) tables of the events store: the event columns into \`events\` and the raw record into \`event_raw\` (monthly partitions of both), under an id made by the loader so both rows share it; parsing excluded. Between the HTTP runs and the baseline both tables and the three rollup tables are truncated. Ingest writes the events, their raw records and the minute / hour / day rollups in one statement; COPY writes no rollup, so the ratio compares ingest with COPY of the two tables alone, and the last column adds the time to rebuild the rollups of the copied rows from scratch (\`rebuildRollups\`), the cost a bulk load pays afterwards. Clients: ${CONCURRENCY.join(', ')}. Peak memory: the server process's VmHWM. Targets: end to end at least 0.7 × raw COPY, and 20,000 events/s end to end on PostgreSQL. Load average before: ${before}.`,
    '',
    ...table(
      [
        'database',
        'clients',
        'events',
        'events/s',
        'batch ms p50 / p95',
        'raw COPY events/s',
        'ratio',
        'COPY + rollup rebuild events/s',
        'server peak RSS MB',
      ],
      rows,
    ),
  ].join('\n');
}

if (import.meta.main) console.log(await benchIngest());
