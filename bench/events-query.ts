/**
 * The event log API over a large space: 1 000 000 demo events (ModSecurity records from
 * server/demo/traffic.ts, normalised by the ingest parser) in one space over the last 7 days, bulk-loaded
 * with COPY (not through HTTP), then p50 / p95 of the event log's and the overview's calls through the
 * real HTTP API (the API in a child process, a personal API token as `Authorization: Bearer`). PostgreSQL
 * in a database created and dropped here; PGlite at 100 000 events (at 1M its COPY and queries take
 * minutes). Nothing here is asserted by tests.
 *
 * `node bench/events-query.ts` prints the markdown section; bench/run.ts includes it.
 * BENCH_QUERY_PG / BENCH_QUERY_PGLITE change the event counts, BENCH_QUERY_RUNS the runs per call.
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { apiTokens } from '../server/db/schema/api-tokens.ts';
import { memberships } from '../server/db/schema/memberships.ts';
import { sources } from '../server/db/schema/sources.ts';
import { spaces } from '../server/db/schema/spaces.ts';
import { users } from '../server/db/schema/users.ts';
import { createTraffic, rhythm } from '../server/demo/traffic.ts';
import { hashToken, randomToken } from '../server/services/shared/tokens.ts';
import { startApiServer } from './lib/api-server.ts';
import { copyIntoPglite, copyWithPsql, csvRows } from './lib/copy-events.ts';
import { postgresDatabase, tempDir } from './lib/databases.ts';
import { count, loadAverage, ms, table } from './lib/format.ts';
import { getJson } from './lib/http.ts';
import { stopProcess } from './lib/processes.ts';
import { type Latency, sampleLatency, timed } from './lib/timing.ts';

const RUNS = Number(process.env.BENCH_QUERY_RUNS ?? 30);
const WARMUP = 3;
/** A call slower than this gets fewer runs, so one slow call cannot hold the whole bench for minutes. */
const BUDGET_MS = 60_000;
const CHUNK = 20_000;
const PG_NAME = 'spaceguard_bench_query';
const DAY = 86_400_000;

type Prepared = { spaceId: string; bearer: string };

/** A space with a source, an owner and a personal API token, written straight to the database. */
async function prepare(db: Awaited<ReturnType<typeof openDatabase>>['db']) {
  const [space] = await db
    .insert(spaces)
    .values({ name: 'Query bench', plan: 'business', retentionDays: 30 })
    .returning();
  const [source] = await db
    .insert(sources)
    .values({
      spaceId: space?.id ?? '',
      name: 'bench',
      kind: 'modsecurity',
      tokenHash: hashToken(randomToken()),
      tokenPrefix: 'x',
    })
    .returning();
  const [user] = await db
    .insert(users)
    .values({ email: 'query-bench@example.test', name: 'Bench', passwordHash: 'unused', activatedAt: new Date() })
    .returning();
  await db.insert(memberships).values({ spaceId: space?.id ?? '', userId: user?.id ?? '', role: 'owner' });
  const bearer = randomToken('sgp_');
  await db
    .insert(apiTokens)
    .values({ userId: user?.id ?? '', name: 'bench', prefix: bearer.slice(0, 8), tokenHash: hashToken(bearer) });
  return { spaceId: space?.id ?? '', sourceId: source?.id ?? '', bearer };
}

/**
 * CSV chunks of `total` demo events over the 7 days before `now`, generated as they are consumed, oldest
 * first in 6-hour slices (sized by the daily rhythm) so the table is laid out in time order, as ingest
 * lays it out.
 */
function* chunks(total: number, spaceId: string, sourceId: string, now: Date): Generator<string> {
  const traffic = createTraffic(5);
  const slice = 6 * 3_600_000;
  const start = now.getTime() - 7 * DAY;
  const slices = Array.from({ length: (7 * DAY) / slice }, (_, i) => start + i * slice);
  const weights = slices.map((at) => rhythm(at + slice / 2));
  const sum = weights.reduce((a, b) => a + b, 0);
  let done = 0;
  for (const [i, at] of slices.entries()) {
    const count = i === slices.length - 1 ? total - done : Math.round((total * (weights[i] ?? 0)) / sum);
    for (let made = 0; made < count; made += CHUNK) {
      const records = traffic.between(new Date(at), new Date(at + slice), Math.min(CHUNK, count - made));
      yield csvRows(records, spaceId, sourceId, now);
    }
    done += count;
  }
}

type Timing = Latency & { name: string; detail: string };

/** Up to RUNS timed calls of one GET after WARMUP, within BUDGET_MS; `detail` says what the last answer held. */
async function time(base: string, bearer: string, name: string, path: string): Promise<Timing> {
  type Answer = { items?: unknown[]; total?: number; buckets?: { total: number }[] };
  let detail = '';
  const once = async () => {
    const body = await getJson<Answer>(fetch, `${base}${path}`, { authorization: `Bearer ${bearer}` });
    if (body.items) detail = `${body.items.length} events`;
    else if (body.total !== undefined) detail = `total ${count(body.total)}`;
    else if (body.buckets)
      detail = `${count(body.buckets.reduce((s, b) => s + b.total, 0))} in ${body.buckets.length} buckets`;
  };
  const latency = await sampleLatency(once, { warmup: WARMUP, runs: RUNS, budgetMs: BUDGET_MS });
  return { name, detail, ...latency };
}

/** The event log's and the overview's calls, as the screens make them. */
async function measure(base: string, prepared: Prepared, now: Date): Promise<Timing[]> {
  const space = `/api/spaces/${prepared.spaceId}/events`;
  const range = (days: number) =>
    `from=${encodeURIComponent(new Date(now.getTime() - days * DAY).toISOString())}&to=${encodeURIComponent(now.toISOString())}`;
  const sqli = `q=${encodeURIComponent('tag:attack-sqli')}`;
  const calls: [string, string][] = [
    ['event page, 24 h (limit 500)', `${space}?${range(1)}&limit=500`],
    ['event page, 7 days (limit 500)', `${space}?${range(7)}&limit=500`],
    ['event page, 7 days, tag:attack-sqli', `${space}?${range(7)}&${sqli}&limit=500`],
    [
      'event page, 7 days, status:403 ip:60.16.0.0/16',
      `${space}?${range(7)}&q=${encodeURIComponent('status:403 ip:60.16.0.0/16')}&limit=500`,
    ],
    ['histogram, 24 h (event log, 60 buckets)', `${space}/histogram?${range(1)}&buckets=60`],
    ['histogram, 7 days, tag:attack-sqli', `${space}/histogram?${range(7)}&${sqli}&buckets=60`],
    ['facets, 24 h (event log)', `${space}/facets?${range(1)}`],
    ['facets, 7 days, tag:attack-sqli', `${space}/facets?${range(7)}&${sqli}`],
    ['overview: histogram, 24 h (48 buckets)', `${space}/histogram?${range(1)}&buckets=48`],
    ['overview: facets, 24 h (size 250)', `${space}/facets?${range(1)}&size=250`],
    ['overview: histogram, 7 days (48 buckets)', `${space}/histogram?${range(7)}&buckets=48`],
    ['overview: facets, 7 days (size 250)', `${space}/facets?${range(7)}&size=250`],
  ];
  const out: Timing[] = [];
  for (const [name, path] of calls) out.push(await time(base, prepared.bearer, name, path));
  return out;
}

type BackendResult = { label: string; events: number; fillSeconds: number; timings: Timing[] };

/**
 * Opens a backend's database, prepares the space, fills it with `fill` (timed with VACUUM ANALYZE), then serves
 * it with the API in a child process started with `env` and measures every call.
 */
async function measureBackend(
  label: string,
  total: number,
  open: () => ReturnType<typeof openDatabase>,
  fill: (opened: Awaited<ReturnType<typeof openDatabase>>, csv: Iterable<string>) => Promise<void>,
  env: Record<string, string>,
): Promise<BackendResult> {
  const opened = await open();
  await migrate(opened);
  const prepared = await prepare(opened.db);
  const now = new Date();
  const { seconds: fillSeconds } = await timed(async () => {
    await fill(opened, chunks(total, prepared.spaceId, prepared.sourceId, now));
    await opened.db.execute(sql`vacuum analyze events`);
  });
  if (opened.driver === 'postgres') {
    // The usual setting for SSD storage (the default 4.0 assumes spinning disks): with it the planner reads a
    // 24-hour range through the index instead of scanning the whole table (facets, 24 h: 2.1 s -> 0.3 s).
    await opened.db.execute(sql.raw(`alter database ${PG_NAME} set random_page_cost = 1.1`));
  }
  await opened.close();
  const { child, ready } = await startApiServer({ ...env, BENCH_SETUP: '0' });
  try {
    const timings = await measure(`http://127.0.0.1:${ready.port}`, prepared, now);
    return { label, events: total, fillSeconds, timings };
  } finally {
    await stopProcess(child);
  }
}

async function postgres(total: number): Promise<BackendResult> {
  const database = await postgresDatabase(PG_NAME);
  try {
    return await measureBackend(
      'PostgreSQL 15',
      total,
      () => openDatabase({ url: database.url }),
      (_, csv) => copyWithPsql(database.url, csv),
      { DATABASE_URL: database.url },
    );
  } finally {
    if (process.env.BENCH_KEEP !== '1') await database.drop();
  }
}

async function pglite(total: number): Promise<BackendResult> {
  const dir = tempDir('sg-bench-query-');
  try {
    return await measureBackend(
      'PGlite',
      total,
      () => openDatabase({ dataDir: dir.path }),
      async (opened, csv) => {
        for (const chunk of csv) if (opened.pglite) await copyIntoPglite(opened.pglite, chunk);
      },
      { DATA_DIR: dir.path, DATABASE_URL: '' },
    );
  } finally {
    dir.remove();
  }
}

/** Runs both backends and answers the markdown section. */
export async function benchEventsQuery(): Promise<string> {
  const before = loadAverage();
  const results: BackendResult[] = [];
  const only = process.env.BENCH_QUERY_ONLY;
  if (only !== 'pglite') results.push(await postgres(Number(process.env.BENCH_QUERY_PG ?? 1_000_000)));
  if (only !== 'postgres') results.push(await pglite(Number(process.env.BENCH_QUERY_PGLITE ?? 100_000)));
  const labels = results.map((r) => `${r.label} (${count(r.events)} events)`);
  const names = results[0]?.timings.map((t) => t.name) ?? [];
  const rows = names.map((name) => {
    const cells = results.map((r) => {
      const t = r.timings.find((x) => x.name === name);
      return t ? `${ms(t.p50)} / ${ms(t.p95)} (${t.runs})` : '—';
    });
    const detail = results[0]?.timings.find((x) => x.name === name)?.detail ?? '';
    return [name, detail, ...cells];
  });
  return [
    '## Event log queries',
    '',
    `One space holding demo events (server/demo/traffic.ts: ModSecurity records over the last 7 days, normalised by the ingest parser, bulk-loaded with COPY in time order, then VACUUM ANALYZE as autovacuum would). Each call goes through the real HTTP API (the API in a child process, \`Authorization: Bearer\` with a personal API token), sequentially: ${WARMUP} warm-up calls, then up to ${RUNS} timed runs (fewer when a call would take over ${BUDGET_MS / 1000} s). ms p50 / p95 (runs). "what" is what the call answered on ${labels[0] ?? ''}. Target: p95 ≤ 100 ms on PostgreSQL. PostgreSQL runs with its defaults except \`random_page_cost = 1.1\` for the bench database (the usual SSD setting; with 4.0 the planner scans the whole table for a 24-hour range and the 24-hour facets take about 2.1 s). Fill: ${results.map((r) => `${r.label} ${Math.round(r.fillSeconds)} s`).join(', ')} (generate, parse, COPY, VACUUM ANALYZE). Load average before: ${before}.`,
    '',
    ...table(['call', 'what', ...labels], rows),
  ].join('\n');
}

if (import.meta.main) console.log(await benchEventsQuery());
