/**
 * Retention under ingest, on PostgreSQL: a space whose source keeps 30 days holds demo events over the last 90 days
 * (so two monthly partitions have wholly expired and the month of the cut is expired in part), then HTTP ingest
 * (NDJSON batches of 1 000 ModSecurity records, 2 clients, the API in a child process) is measured alone, and again
 * while the retention job runs beside it in this process (`deleteExpiredEvents`: the expired months dropped whole,
 * the rest deleted in chunks). Answers how long retention took, what it deleted, and ingest's events/s and batch
 * latency without and with it. Nothing here is asserted by tests.
 *
 * `node bench/run.ts retention` prints the markdown section; bench/run.ts includes it.
 * BENCH_RETENTION_EVENTS changes the events loaded (default 700 000).
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../server/db/database.ts';
import { createTraffic } from '../server/demo/traffic.ts';
import { ensurePartitions, listPartitions } from '../server/services/events/partitions.ts';
import { rebuildRollups } from '../server/services/events/rollups.ts';
import { deleteExpiredEvents } from '../server/services/events/workers/retention-worker.ts';
import { startApiServer } from './lib/api-server.ts';
import { type CopyCsv, copyEventsWithPsql, csvRows } from './lib/copy-events.ts';
import { postgresDatabase } from './lib/databases.ts';
import { count, loadAverage, ms, table } from './lib/format.ts';
import { stopProcess } from './lib/processes.ts';
import { p50p95 } from './lib/stats.ts';

/** The daily job's pacing (`retentionWorker`): a pause as long as each chunk took. */
const PAUSE_RATIO = 1;
const DAY = 86_400_000;
const BATCH = 1000;
const CLIENTS = 2;
const KEEP_DAYS = 30;
const PG_NAME = 'spaceguard_bench_retention';

/** CSV chunks of `total` events spread evenly over [from, to), oldest first. */
function* chunks(total: number, from: number, to: number, spaceId: string, sourceId: string): Generator<CopyCsv> {
  const traffic = createTraffic(9);
  const per = Math.min(20_000, total);
  const slices = Math.ceil(total / per);
  const width = (to - from) / slices;
  for (let i = 0; i < slices; i++) {
    const records = traffic.between(new Date(from + i * width), new Date(from + (i + 1) * width), per);
    yield csvRows(records, spaceId, sourceId, new Date());
  }
}

type IngestRun = { batches: number; events: number; seconds: number; p50: number; p95: number; max: number };

/** Sends fresh batches with CLIENTS clients until `until()` says stop (after at least `min` batches). */
async function ingest(url: string, bodies: Iterator<string>, min: number, until: () => boolean): Promise<IngestRun> {
  const latencies: number[] = [];
  const started = performance.now();
  let sent = 0;
  const client = async () => {
    while (sent < min || !until()) {
      const next = bodies.next();
      if (next.done) return;
      sent += 1;
      const t0 = performance.now();
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body: next.value,
      });
      const answer = (await res.json()) as { accepted?: number };
      if (res.status !== 200 || answer.accepted !== BATCH)
        throw new Error(`ingest: ${res.status} ${JSON.stringify(answer)}`);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const seconds = (performance.now() - started) / 1000;
  return {
    batches: latencies.length,
    events: latencies.length * BATCH,
    seconds,
    ...p50p95(latencies),
    max: Math.max(...latencies),
  };
}

/** Batches of fresh demo records from the last hour, made as they are sent. */
function* freshBodies(): Generator<string> {
  const traffic = createTraffic(10);
  for (;;) {
    const to = Date.now();
    yield traffic
      .between(new Date(to - 3_600_000), new Date(to), BATCH)
      .map((r) => JSON.stringify(r))
      .join('\n');
  }
}

export async function benchRetention(): Promise<string> {
  const total = Number(process.env.BENCH_RETENTION_EVENTS ?? 700_000);
  const before = loadAverage();
  const database = await postgresDatabase(PG_NAME);
  try {
    const { child, ready } = await startApiServer({ DATABASE_URL: database.url });
    try {
      const opened = await openDatabase({ url: database.url });
      try {
        const now = Date.now();
        const from = now - 90 * DAY;
        // The space keeps a year (Business), its source 30 days: the cut is the start of the UTC day 30 days back.
        await opened.db.execute(sql`update spaces set retention_days = 365 where id = ${ready.spaceId}::uuid`);
        await opened.db.execute(
          sql`update sources set retention_days = ${KEEP_DAYS} where id = ${ready.sourceId}::uuid`,
        );
        for (let at = from; at < now + 31 * DAY; at += 28 * DAY) await ensurePartitions(opened.db, new Date(at));
        const fillStarted = performance.now();
        await copyEventsWithPsql(database.url, chunks(total, from, now, ready.spaceId, ready.sourceId));
        await rebuildRollups(opened.db);
        await opened.db.execute(sql`vacuum analyze`);
        const fillSeconds = (performance.now() - fillStarted) / 1000;
        const partitions = (await listPartitions(opened.db)).filter((p) => p.table === 'events');

        const url = `http://127.0.0.1:${ready.port}/api/ingest/${ready.token}`;
        const bodies = freshBodies();
        await ingest(url, bodies, 4, () => true); // warm-up
        const alone = await ingest(url, bodies, 40, () => true);

        let retentionDone = false;
        const retentionStarted = performance.now();
        const retention = deleteExpiredEvents(opened.db, new Date(), { pauseRatio: PAUSE_RATIO }).finally(() => {
          retentionDone = true;
        });
        const beside = await ingest(url, bodies, 10, () => retentionDone);
        const result = await retention;
        const retentionSeconds = (performance.now() - retentionStarted) / 1000;

        const row = (label: string, r: IngestRun) => [
          label,
          count(r.events),
          count(r.events / r.seconds),
          `${ms(r.p50, 0)} / ${ms(r.p95, 0)} / ${ms(r.max, 0)}`,
        ];
        return [
          '## Retention under ingest',
          '',
          `Command: \`node bench/run.ts retention\` (PostgreSQL 15). One space (keeping 365 days) whose source keeps ${KEEP_DAYS} days, holding ${count(total)} demo events spread over the last 90 days (COPY into both tables of the events store, monthly partitions ${partitions.map((p) => p.name.slice(-7)).join(', ')}, rollups rebuilt, VACUUM ANALYZE; ${Math.round(fillSeconds)} s). Ingest: NDJSON batches of ${BATCH.toLocaleString('en')} fresh ModSecurity records from ${CLIENTS} clients over HTTP to the API in a child process, first alone, then while \`deleteExpiredEvents\` runs beside it in this process on its own connection (expired months dropped whole with a 2 s lock timeout, the rest deleted ${'in chunks of 5 000 events'}, each its own transaction, paced as the daily job paces them: after each chunk a pause ${PAUSE_RATIO} times as long as the chunk took). Load average before: ${before}.`,
          '',
          `Retention: ${retentionSeconds.toFixed(1)} s, ${count(result.events)} events deleted, partitions dropped whole: ${result.droppedPartitions.filter((n) => n.startsWith('events_')).join(', ') || 'none'}.`,
          '',
          ...table(
            ['ingest', 'events', 'events/s', 'batch ms p50 / p95 / max'],
            [row('alone', alone), row('while retention runs', beside)],
          ),
        ].join('\n');
      } finally {
        await opened.close();
      }
    } finally {
      await stopProcess(child);
    }
  } finally {
    await database.drop();
  }
}

if (import.meta.main) console.log(await benchRetention());
