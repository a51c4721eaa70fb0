/**
 * The event log API over a large space: demo events (ModSecurity records from server/demo/traffic.ts, normalised by
 * the ingest parser) in one space over the last 7 days, bulk-loaded with COPY (not through HTTP) into both tables
 * of the events store (`events` and the raw records' `event_raw`, monthly partitions made first), the rollups
 * rebuilt from them (COPY bypasses ingest, which maintains them), then VACUUM ANALYZE; then p50 / p95 of the event
 * log's and the overview's calls through the real HTTP API (the API in a child process, a personal API token as
 * `Authorization: Bearer`). PostgreSQL at 1 000 000 and 10 000 000 events (a database created and dropped per
 * size), PGlite at 1 000 000. Also the size of each table and the bytes of a 100-row page on the wire. Nothing here
 * is asserted by tests.
 *
 * `node bench/events-query.ts` prints the markdown section; bench/run.ts includes it. BENCH_QUERY_PG (a list,
 * `1000000,10000000`) / BENCH_QUERY_PGLITE change the event counts, BENCH_QUERY_RUNS the runs per call (up to
 * 2 M events), BENCH_QUERY_RUNS_LARGE the runs per call above 2 M; BENCH_QUERY_ONLY=postgres|pglite one backend;
 * BENCH_QUERY_DB the PostgreSQL database's name; BENCH_QUERY_PARTIAL a file for the section after each backend.
 */
import { writeFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { type Db, openDatabase, rowsOf } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { apiTokens } from '../server/db/schema/api-tokens.ts';
import { memberships } from '../server/db/schema/memberships.ts';
import { sources } from '../server/db/schema/sources.ts';
import { spaces } from '../server/db/schema/spaces.ts';
import { users } from '../server/db/schema/users.ts';
import { createTraffic, rhythm } from '../server/demo/traffic.ts';
import { ensurePartitions } from '../server/services/events/partitions.ts';
import { rebuildRollups } from '../server/services/events/rollups.ts';
import { hashToken, randomToken } from '../server/services/shared/tokens.ts';
import { startApiServer } from './lib/api-server.ts';
import { type CopyCsv, copyEventsWithPsql, copyIntoPglite, csvRows } from './lib/copy-events.ts';
import { postgresDatabase, tempDir } from './lib/databases.ts';
import { count, kb, loadAverage, ms, table } from './lib/format.ts';
import { getJson } from './lib/http.ts';
import { stopProcess } from './lib/processes.ts';
import { type Latency, sampleLatency, timed } from './lib/timing.ts';
import { type WireSize, wireSize } from './lib/wire-bytes.ts';

const RUNS = Number(process.env.BENCH_QUERY_RUNS ?? 30);
/** Above this many events a backend gets RUNS_LARGE runs per call, so the 10 M fill and its calls fit the run. */
const LARGE = 2_000_000;
const RUNS_LARGE = Number(process.env.BENCH_QUERY_RUNS_LARGE ?? 10);
const WARMUP = 3;
/** A call slower than this gets fewer runs, so one slow call cannot hold the whole bench for minutes. */
const BUDGET_MS = 60_000;
const CHUNK = 20_000;
/** The bench's PostgreSQL database (created and dropped per size); BENCH_QUERY_DB names another, for two checkouts. */
const PG_NAME = process.env.BENCH_QUERY_DB ?? 'spaceguard_bench_query';
const DAY = 86_400_000;

type Prepared = { spaceId: string; bearer: string };

/** A space with a source, an owner and a personal API token, written straight to the database. */
export async function prepare(db: Awaited<ReturnType<typeof openDatabase>>['db']) {
  // The benches that prepare a space work in real time.
  const now = new Date();
  const [space] = await db
    .insert(spaces)
    .values({ name: 'Query bench', plan: 'business', retentionDays: 30, createdAt: now, updatedAt: now })
    .returning();
  const [source] = await db
    .insert(sources)
    .values({
      spaceId: space?.id ?? '',
      name: 'bench',
      kind: 'modsecurity',
      tokenHash: hashToken(randomToken()),
      tokenPrefix: 'x',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const [user] = await db
    .insert(users)
    .values({
      email: 'query-bench@example.test',
      name: 'Bench',
      passwordHash: 'unused',
      activatedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await db
    .insert(memberships)
    .values({ spaceId: space?.id ?? '', userId: user?.id ?? '', role: 'owner', createdAt: now });
  const bearer = randomToken('sgp_');
  await db.insert(apiTokens).values({
    userId: user?.id ?? '',
    name: 'bench',
    prefix: bearer.slice(0, 8),
    tokenHash: hashToken(bearer),
    createdAt: now,
  });
  return { spaceId: space?.id ?? '', sourceId: source?.id ?? '', bearer, userId: user?.id ?? '' };
}

/**
 * CSV chunks of `total` demo events over the 7 days before `now`, generated as they are consumed, oldest
 * first in 6-hour slices (sized by the daily rhythm) so the table is laid out in time order, as ingest
 * lays it out.
 */
export function* chunks(total: number, spaceId: string, sourceId: string, now: Date): Generator<CopyCsv> {
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

/** Up to `runs` timed calls of one GET after WARMUP, within BUDGET_MS; `detail` says what the last answer held. */
async function time(base: string, bearer: string, runs: number, name: string, path: string): Promise<Timing> {
  type Answer = { items?: unknown[]; total?: number; buckets?: { total: number }[] };
  let detail = '';
  const once = async () => {
    const body = await getJson<Answer>(fetch, `${base}${path}`, { authorization: `Bearer ${bearer}` });
    if (body.items) detail = `${body.items.length} events`;
    else if (body.total !== undefined) detail = `total ${count(body.total)}`;
    else if (body.buckets)
      detail = `${count(body.buckets.reduce((s, b) => s + b.total, 0))} in ${body.buckets.length} buckets`;
  };
  try {
    const latency = await sampleLatency(once, { warmup: WARMUP, runs, budgetMs: BUDGET_MS });
    return { name, detail, ...latency };
  } catch (error) {
    // A call the search lane stops at its budget (400 query_timeout) is a figure too: the rest still get measured.
    if (!String(error).includes('query_timeout')) throw error;
    return { name, detail: 'stopped at the search budget (query_timeout)', runs: 0, p50: Number.NaN, p95: Number.NaN };
  }
}

/** The filters every event log call is made with: none, then the usual ones (the free-text word is in CRS messages). */
const FILTERS = ['', 'action:blocked', 'ip:60.16.0.0/16', 'tag:attack-sqli', 'rule:942100', 'injection'];

/**
 * p95 ms of the calls that existed in the earlier run of this bench (BENCHMARKS.md before the events store:
 * PostgreSQL, 1 M events, the raw record in `events`, no rollups), by the name the call has here.
 */
const BEFORE: Record<string, string> = {
  'event page, 24 h': '61.3 (limit 500)',
  'event page, 7 days': '51.3 (limit 500)',
  'event page, 7 days, tag:attack-sqli': '70.1 (limit 500)',
  'event page, 7 days, ip:60.16.0.0/16': '229.8 (with status:403, limit 500)',
  'histogram, 24 h': '58.9',
  'histogram, 7 days, tag:attack-sqli': '322.5',
  'facets, 24 h': '513.3',
  'facets, 7 days, tag:attack-sqli': '467.4',
  'overview: histogram, 24 h (48 buckets)': '61.5',
  'overview: facets, 24 h (size 250)': '524.2',
  'overview: histogram, 7 days (48 buckets)': '428.6',
  'overview: facets, 7 days (size 250)': '2988.6',
};

const rangeOf = (now: Date, days: number) =>
  `from=${encodeURIComponent(new Date(now.getTime() - days * DAY).toISOString())}&to=${encodeURIComponent(now.toISOString())}`;

/** The event log's and the overview's calls, as the screens make them: [name, path]. */
function calls(spaceId: string, now: Date): [string, string][] {
  const space = `/api/spaces/${spaceId}/events`;
  const out: [string, string][] = [];
  for (const [kind, path, params] of [
    ['event page', '', 'limit=100'],
    ['histogram', '/histogram', 'buckets=60'],
    ['facets', '/facets', 'size=10'],
  ] as const) {
    for (const [span, days] of [
      ['24 h', 1],
      ['7 days', 7],
    ] as const) {
      for (const filter of FILTERS) {
        const q = filter ? `&q=${encodeURIComponent(filter)}` : '';
        out.push([
          `${kind}, ${span}${filter ? `, ${filter}` : ''}`,
          `${space}${path}?${rangeOf(now, days)}${q}&${params}`,
        ]);
      }
    }
  }
  out.push(
    ['overview: histogram, 24 h (48 buckets)', `${space}/histogram?${rangeOf(now, 1)}&buckets=48`],
    ['overview: facets, 24 h (size 250)', `${space}/facets?${rangeOf(now, 1)}&size=250`],
    ['overview: histogram, 7 days (48 buckets)', `${space}/histogram?${rangeOf(now, 7)}&buckets=48`],
    ['overview: facets, 7 days (size 250)', `${space}/facets?${rangeOf(now, 7)}&size=250`],
  );
  return out;
}

/** The tables of the events store whose size is reported. */
const STORE_TABLES = ['events', 'event_raw', 'event_rollup_minute', 'event_rollup_hour', 'event_rollup_day'] as const;
type TableSize = { table: string; bytes: number; rows: number };

/** Bytes on disk (every partition with its indexes and TOAST) and rows of each table of the store. */
async function tableSizes(db: Db): Promise<TableSize[]> {
  const out: TableSize[] = [];
  for (const name of STORE_TABLES) {
    const [row] = rowsOf<{ bytes: string; rows: string }>(
      await db.execute(
        // pg_partition_tree answers nothing for a table that is not partitioned (the rollups).
        sql.raw(`select coalesce((select sum(pg_total_relation_size(relid)) from pg_partition_tree('${name}')),
            pg_total_relation_size('${name}'))::text as bytes,
          (select count(*) from ${name})::text as rows`),
      ),
    );
    out.push({ table: name, bytes: Number(row?.bytes ?? 0), rows: Number(row?.rows ?? 0) });
  }
  return out;
}

/** The 24-hour, 100-row event page as sent without compression and when the client accepts gzip or brotli. */
async function pageBytes(base: string, prepared: Prepared, now: Date): Promise<Record<string, WireSize>> {
  const url = `${base}/api/spaces/${prepared.spaceId}/events?${rangeOf(now, 1)}&limit=100`;
  const headers = { authorization: `Bearer ${prepared.bearer}` };
  const out: Record<string, WireSize> = {};
  for (const encoding of ['identity', 'gzip', 'br']) out[encoding] = await wireSize(url, encoding, headers);
  return out;
}

type BackendResult = {
  label: string;
  events: number;
  runs: number;
  fill: { copy: number; rollups: number; vacuum: number };
  sizes: TableSize[];
  page: Record<string, WireSize>;
  timings: Timing[];
  /** The load average when its calls started (the machine is shared). */
  load: string;
};

/**
 * Opens a backend's database, prepares the space and its monthly partitions, fills it with `fill` (COPY), rebuilds
 * the rollups and runs VACUUM ANALYZE (each timed), then serves it with the API in a child process started with
 * `env` and measures every call.
 */
async function measureBackend(
  label: string,
  total: number,
  open: () => ReturnType<typeof openDatabase>,
  fill: (opened: Awaited<ReturnType<typeof openDatabase>>, csv: Iterable<CopyCsv>) => Promise<void>,
  env: Record<string, string>,
): Promise<BackendResult> {
  const runs = total > LARGE ? RUNS_LARGE : RUNS;
  const opened = await open();
  await migrate(opened);
  const prepared = await prepare(opened.db);
  const now = new Date();
  await ensurePartitions(opened.db, new Date(now.getTime() - 7 * DAY));
  await ensurePartitions(opened.db, now);
  const progress = (what: string) => console.error(`[events-query] ${label} ${count(total)}: ${what}`);
  progress('filling');
  const { seconds: copy } = await timed(() => fill(opened, chunks(total, prepared.spaceId, prepared.sourceId, now)));
  progress(`COPY ${Math.round(copy)} s`);
  const { seconds: rollups } = await timed(() => rebuildRollups(opened.db));
  progress(`rollups ${Math.round(rollups)} s`);
  const { seconds: vacuum } = await timed(() =>
    opened.db.execute(sql.raw(`vacuum analyze ${STORE_TABLES.join(', ')}`)),
  );
  progress(`vacuum analyze ${Math.round(vacuum)} s`);
  const sizes = await tableSizes(opened.db);
  if (opened.driver === 'postgres') {
    // The usual setting for SSD storage (the default 4.0 assumes spinning disks): with it the planner reads a
    // 24-hour range through the index instead of scanning the whole table (facets, 24 h: 2.1 s -> 0.3 s).
    await opened.db.execute(sql.raw(`alter database ${PG_NAME} set random_page_cost = 1.1`));
  }
  await opened.close();
  const { child, ready } = await startApiServer({ ...env, BENCH_SETUP: '0' });
  try {
    const base = `http://127.0.0.1:${ready.port}`;
    const load = loadAverage();
    const page = await pageBytes(base, prepared, now);
    const timings: Timing[] = [];
    for (const [name, path] of calls(prepared.spaceId, now)) {
      const timing = await time(base, prepared.bearer, runs, name, path);
      progress(`${name}: ${timing.detail}, p50 ${ms(timing.p50)} / p95 ${ms(timing.p95)} (${timing.runs})`);
      timings.push(timing);
    }
    return { label, events: total, runs, fill: { copy, rollups, vacuum }, sizes, page, timings, load };
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
      (_, csv) => copyEventsWithPsql(database.url, csv),
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
        if (!opened.pglite) throw new Error('PGlite was not opened on this thread');
        for (const chunk of csv) {
          await copyIntoPglite(opened.pglite, 'events', chunk.events);
          await copyIntoPglite(opened.pglite, 'event_raw', chunk.event_raw);
        }
      },
      { DATA_DIR: dir.path, DATABASE_URL: '' },
    );
  } finally {
    dir.remove();
  }
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

/**
 * Runs every backend and size (the largest PostgreSQL size last, so a run cut short still has the others) and
 * answers the markdown section; with BENCH_QUERY_PARTIAL, writes the section so far to that file after each one.
 */
export async function benchEventsQuery(): Promise<string> {
  const before = loadAverage();
  const results: BackendResult[] = [];
  const only = process.env.BENCH_QUERY_ONLY;
  const pgSizes = (process.env.BENCH_QUERY_PG ?? '1000000,10000000')
    .split(',')
    .map(Number)
    .filter(Boolean)
    .sort((a, b) => a - b);
  const steps: (() => Promise<BackendResult>)[] = [];
  if (only !== 'pglite') steps.push(...pgSizes.map((total) => () => postgres(total)));
  if (only !== 'postgres') {
    const total = Number(process.env.BENCH_QUERY_PGLITE ?? 1_000_000);
    steps.splice(only === 'pglite' ? 0 : 1, 0, () => pglite(total));
  }
  for (const step of steps) {
    results.push(await step());
    // PostgreSQL sizes first, smallest first, then PGlite.
    results.sort((a, b) => Number(a.label === 'PGlite') - Number(b.label === 'PGlite') || a.events - b.events);
    const partial = process.env.BENCH_QUERY_PARTIAL;
    if (partial) writeFileSync(partial, render(results, before));
  }
  return render(results, before);
}

/** The markdown section for the backends measured so far. */
function render(results: BackendResult[], before: string): string {
  const labels = results.map((r) => `${r.label} (${count(r.events)} events)`);
  const names = results[0]?.timings.map((t) => t.name) ?? [];
  const rows = names.map((name) => {
    const cells = results.map((r) => {
      const t = r.timings.find((x) => x.name === name);
      return t ? (t.runs === 0 ? 'stopped at the budget' : `${ms(t.p50)} / ${ms(t.p95)} (${t.runs})`) : '—';
    });
    const detail = results[0]?.timings.find((x) => x.name === name)?.detail ?? '';
    return [name, detail, BEFORE[name] ?? '—', ...cells];
  });
  const sizeRows = STORE_TABLES.map((name) => [
    name,
    ...results.map((r) => {
      const size = r.sizes.find((s) => s.table === name);
      return size ? `${mb(size.bytes)} MB (${count(size.rows)} rows)` : '—';
    }),
  ]);
  sizeRows.push(['total', ...results.map((r) => `${mb(r.sizes.reduce((sum, s) => sum + s.bytes, 0))} MB`)]);
  const pageRows = ['identity', 'gzip', 'br'].map((encoding) => [
    `Accept-Encoding: ${encoding}`,
    ...results.map((r) => {
      const size = r.page[encoding];
      return size ? `${kb(size.bytes)} KB (${size.encoding})` : '—';
    }),
  ]);
  const compressed = results.some((r) => Object.values(r.page).some((s) => s.encoding !== 'identity'));
  const large = results.filter((r) => r.events > LARGE);
  const runsText = `${RUNS}${large.length ? ` (${RUNS_LARGE} at ${large.map((r) => `${r.label} ${count(r.events)}`).join(', ')}, so that its fill and calls fit the run)` : ''}`;
  const fills = results
    .map(
      (r) =>
        `${r.label} ${count(r.events)}: ${Math.round(r.fill.copy)} s COPY + ${Math.round(r.fill.rollups)} s rollups + ${Math.round(r.fill.vacuum)} s VACUUM ANALYZE`,
    )
    .join('; ');
  return [
    '## Event log queries',
    '',
    `One space holding demo events (server/demo/traffic.ts: ModSecurity records over the last 7 days, normalised by the ingest parser) in the events store: the monthly partitions of the 7 days made first (\`ensurePartitions\` for the month 7 days ago and this one, each with the next), the event columns COPY'd into \`events\` and the raw records into \`event_raw\` side by side in time order (the ids made by the loader, so both rows share them), then the minute / hour / day rollups rebuilt from the events (\`rebuildRollups\`: COPY bypasses ingest, which maintains them in its own statement), then VACUUM ANALYZE as autovacuum would. Each call goes through the real HTTP API (the API in a child process, \`Authorization: Bearer\` with a personal API token), sequentially: ${WARMUP} warm-up calls, then up to ${runsText} timed runs per call (fewer, at least 5, when a call would take over ${BUDGET_MS / 1000} s). ms p50 / p95 (runs). The event log's calls are made as it makes them: a page of 100 rows, a histogram of 60 buckets (round intervals: 30 min over 24 h, 3 h over 7 days) and facets of size 10, over 24 h and 7 days, unfiltered and with each usual filter (an action, an ip range, a tag, a rule, a free-text word); the overview's as it makes them (48 buckets, facets of size 250). Histograms and facets whose query names nothing but the action or the firewall are answered from the rollups (plus the raw events at the range's ragged edges; the client addresses from their heavy rows when these settle the top N, else from every address row), and so are histograms of whole hours whose query adds one tag, rule, severity, country or host; the others, and every page, read \`events\` (ip ranges through the index on \`ip_net\`, free text through the trigram index on the message, tags and rules through their GIN indexes). "what" is what the call answered on ${labels[0] ?? ''}. "before" is the p95 of the same call in the earlier run (PostgreSQL, 1 M events, one unpartitioned table holding the raw record, no rollups); its pages were 500 rows. Targets: p95 ≤ 100 ms at 1 M on PostgreSQL; at 10 M reported, goal ≤ 250 ms; PGlite at 1 M reported. PostgreSQL is the benches' own cluster, sized for the machine (the settings are at the top of this file), with \`random_page_cost = 1.1\` also set on the bench database. Fill (generate, parse, COPY; rollups; VACUUM ANALYZE): ${fills}. Load average before the run: ${before}; when the calls started: ${results.map((r) => `${r.label} ${count(r.events)} ${r.load}`).join('; ')}.`,
    '',
    ...table(['call', 'what', 'before (PostgreSQL 1 M, earlier run)', ...labels], rows),
    '',
    'Size on disk of each table of the store after the fill (every partition with its indexes and TOAST; the rollups are not partitioned), with its rows:',
    '',
    ...table(['table', ...labels], sizeRows),
    '',
    `Bytes of the 24-hour event page of 100 rows (the body as sent, with the Content-Encoding the API chose)${compressed ? '' : '; the API does not compress its answers yet, so every request got the uncompressed body'}:`,
    '',
    ...table(['request', ...labels], pageRows),
  ].join('\n');
}

if (import.meta.main) console.log(await benchEventsQuery());
