/**
 * Dashboard widget queries over a large space: the events-query bench's 1 000 000 demo events (7 days, COPY'd into
 * PostgreSQL, rollups rebuilt, VACUUM ANALYZE), then the eight widgets of the overview template
 * (contract/constants/dashboard-templates.ts) through `POST /api/spaces/{spaceId}/query` of the real HTTP API (the API in a
 * child process, a personal API token as `Authorization: Bearer`) over `now-24h` and `now-7d`: p50 / p95 of each
 * widget alone, whether the rollups answered, and the wall time of all eight sent at once (as the dashboard sends
 * them). Nothing here is asserted by tests.
 *
 * `node bench/run.ts dashboards` prints the markdown section. BENCH_DASH_EVENTS changes the event count,
 * BENCH_DASH_RUNS the runs per widget, BENCH_DASH_DB the PostgreSQL database's name.
 */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { eq, sql } from 'drizzle-orm';
import { dashboardTemplates } from '../contract/constants/dashboard-templates.ts';
import type { WidgetResult } from '../contract/dashboards.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { users } from '../server/db/schema/users.ts';
import { hashPassword } from '../server/services/accounts/passwords.ts';
import { ensurePartitions } from '../server/services/events/partitions.ts';
import { rebuildRollups } from '../server/services/events/rollups.ts';
import { chunks, prepare } from './events-query.ts';
import { startApiServer } from './lib/api-server.ts';
import { copyEventsWithPsql } from './lib/copy-events.ts';
import { postgresDatabase } from './lib/databases.ts';
import { count, loadAverage, ms, table } from './lib/format.ts';
import { sendJson } from './lib/http.ts';
import { spawnNode, stopProcess, waitForUrl } from './lib/processes.ts';
import { median } from './lib/stats.ts';
import { sampleLatency, timed } from './lib/timing.ts';

const TOTAL = Number(process.env.BENCH_DASH_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_DASH_RUNS ?? 30);
const WARMUP = 3;
const PG_NAME = process.env.BENCH_DASH_DB ?? 'spaceguard_bench_dashboards';
const DAY = 86_400_000;
const STORE_TABLES = ['events', 'event_raw', 'event_rollup_minute', 'event_rollup_hour', 'event_rollup_day'];

const BROWSER_PASSWORD = 'Bench-dashboards-2026';
const BROWSER_LOADS = Number(process.env.BENCH_DASH_LOADS ?? 7);
const SITE_PORT = Number(process.env.BENCH_DASH_PORT ?? 4520);

type Row = { range: string; widget: string; what: string; rollups: string; p50: number; p95: number; runs: number };

/** What an answer held, in a few words. */
function summary(result: WidgetResult): string {
  const data = result.series[0]?.data ?? [];
  if (result.intervalSeconds !== null) {
    const total = data.reduce((sum, [, v]) => sum + (v ?? 0), 0);
    return `${count(total)} in ${data.length} buckets of ${result.intervalSeconds / 60} min`;
  }
  if (data.length === 1 && data[0]?.[0] === null) return count(data[0]?.[1] ?? 0);
  const top = data[0];
  return `${data.length} values, top ${top?.[0]} ${count(top?.[1] ?? 0)}`;
}

export async function benchDashboards(): Promise<string> {
  const before = loadAverage();
  const database = await postgresDatabase(PG_NAME);
  const progress = (what: string) => console.error(`[dashboards] ${what}`);
  try {
    const opened = await openDatabase({ url: database.url });
    await migrate(opened);
    const prepared = await prepare(opened.db);
    const now = new Date();
    await ensurePartitions(opened.db, new Date(now.getTime() - 7 * DAY));
    await ensurePartitions(opened.db, now);
    const { seconds: copy } = await timed(() =>
      copyEventsWithPsql(database.url, chunks(TOTAL, prepared.spaceId, prepared.sourceId, now)),
    );
    progress(`COPY ${Math.round(copy)} s`);
    const { seconds: rollups } = await timed(() => rebuildRollups(opened.db));
    progress(`rollups ${Math.round(rollups)} s`);
    await opened.db.execute(sql.raw(`vacuum analyze ${STORE_TABLES.join(', ')}`));
    await opened.db.execute(sql.raw(`alter database ${PG_NAME} set random_page_cost = 1.1`));
    // The bench user signs in to the browser with a password.
    await opened.db
      .update(users)
      .set({ passwordHash: await hashPassword(BROWSER_PASSWORD) })
      .where(eq(users.id, prepared.userId));
    await opened.close();

    const { child, ready } = await startApiServer({ DATABASE_URL: database.url, BENCH_SETUP: '0' });
    try {
      const url = `http://127.0.0.1:${ready.port}/api/spaces/${prepared.spaceId}/query`;
      const headers = { authorization: `Bearer ${prepared.bearer}` };
      const ask = async (body: unknown): Promise<WidgetResult> => {
        const res = await sendJson(fetch, 'POST', url, body, headers);
        const text = await res.text();
        if (res.status !== 200) throw new Error(`POST ${url}: ${res.status} ${text.slice(0, 300)}`);
        return JSON.parse(text) as WidgetResult;
      };
      const widgets = dashboardTemplates.overview.model.widgets;
      const load = loadAverage();
      const rows: Row[] = [];
      const together: { range: string; p50: number; p95: number; runs: number }[] = [];
      for (const from of ['now-24h', 'now-7d']) {
        for (const widget of widgets) {
          const body = { query: widget.query, from, to: 'now' };
          let last: WidgetResult | null = null;
          const latency = await sampleLatency(
            async () => {
              last = await ask(body);
            },
            { warmup: WARMUP, runs: RUNS },
          );
          const answer = last as WidgetResult | null;
          const row: Row = {
            range: from,
            widget: `${widget.id} (${widget.query.metric}${widget.query.field ? ` ${widget.query.field}` : ''} by ${widget.query.groupBy.kind === 'field' ? widget.query.groupBy.field : widget.query.groupBy.kind}${widget.query.filter ? `, ${widget.query.filter}` : ''})`,
            what: answer ? summary(answer) : '',
            rollups: answer?.fromRollups ? 'yes' : 'no',
            ...latency,
          };
          progress(`${from} ${row.widget}: ${row.what}, p50 ${ms(row.p50)} / p95 ${ms(row.p95)} (${row.rollups})`);
          rows.push(row);
        }
        const all = await sampleLatency(
          () => Promise.all(widgets.map((widget) => ask({ query: widget.query, from, to: 'now' }))),
          { warmup: WARMUP, runs: RUNS },
        );
        progress(`${from} all 8 at once: p50 ${ms(all.p50)} / p95 ${ms(all.p95)}`);
        together.push({ range: from, ...all });
      }
      const browser = await browserLoads(database.url, prepared.spaceId, prepared.bearer, progress);
      return [
        '## Dashboard widget queries',
        '',
        `The eight widgets of the overview dashboard (\`dashboardTemplates.overview\`) through \`POST /api/spaces/{spaceId}/query\` of the real HTTP API (the API in a child process, \`Authorization: Bearer\`), over ${count(TOTAL)} demo events in PostgreSQL 15 loaded as the event log bench loads them (7 days, COPY, rollups rebuilt, VACUUM ANALYZE; ${Math.round(copy)} s COPY + ${Math.round(rollups)} s rollups). Each widget alone: ${WARMUP} warm-up calls, then ${RUNS} timed runs, one after the other; ms p50 / p95. "rollups" says whether the rollups answered (\`fromRollups\`); the others read \`events\`. Then all eight sent at once, as a dashboard sends them (the wall time until the last answer; the search lane runs as many at a time as its pool has connections). Target: p95 ≤ 100 ms per widget where the rollups answer. Load average before: ${before}; when the calls started: ${load}.`,
        '',
        ...table(
          ['range', 'widget', 'what', 'rollups', 'p50 / p95 (runs)'],
          rows.map((row) => [
            row.range,
            row.widget,
            row.what,
            row.rollups,
            `${ms(row.p50)} / ${ms(row.p95)} (${row.runs})`,
          ]),
        ),
        '',
        ...table(
          ['range', 'all 8 at once, p50 / p95 (runs)'],
          together.map((row) => [row.range, `${ms(row.p50)} / ${ms(row.p95)} (${row.runs})`]),
        ),
        '',
        ...browser,
      ].join('\n');
    } finally {
      await stopProcess(child);
    }
  } finally {
    if (process.env.BENCH_KEEP !== '1') await database.drop();
  }
}

/**
 * The dashboard as a person sees it: the built site and the API (`server/main.ts`) on the same database, Chromium
 * (headless, Debian's) signed in as the bench user, the overview dashboard over the last 24 hours and the last
 * 7 days (all 1 M events) opened again and again; the time from the navigation's start until every widget has its
 * answer drawn (each widget's `aria-busy` false, the charts and the map rendered). The first load is cold (no cached
 * scripts or map); the others are a returning visitor's. Skipped without a built site (`npm run build`).
 */
async function browserLoads(
  databaseUrl: string,
  spaceId: string,
  bearer: string,
  progress: (what: string) => void,
): Promise<string[]> {
  if (!existsSync('dist/index.html')) return ['(The browser part needs a built site: run `npm run build` first.)'];
  const base = `http://127.0.0.1:${SITE_PORT}`;
  const server = spawnNode('server/main.ts', [], {
    PORT: String(SITE_PORT),
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: base,
  });
  const rows: string[][] = [];
  try {
    await waitForUrl(server, `${base}/_build/latest.json`, 30);
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
    try {
      const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
      const login = await context.request.post('/api/auth/login', {
        data: { email: 'query-bench@example.test', password: BROWSER_PASSWORD },
        headers: { origin: base },
      });
      if (!login.ok()) throw new Error(`sign-in: ${login.status()} ${await login.text()}`);
      for (const from of ['now-24h', 'now-7d']) {
        const model = { ...dashboardTemplates.overview.model, timeRange: { from, to: 'now' }, refreshSeconds: 0 };
        const created = await sendJson(fetch, 'POST', `${base}/api/spaces/${spaceId}/dashboards`, model, {
          authorization: `Bearer ${bearer}`,
        });
        if (created.status !== 201) throw new Error(`create dashboard: ${created.status} ${await created.text()}`);
        const { id } = (await created.json()) as { id: string };
        const times: number[] = [];
        for (let run = 0; run < BROWSER_LOADS; run++) {
          const page = await context.newPage();
          await page.goto(`/console/dashboard/explore/${spaceId}/${id}`);
          const drawn = await page.waitForFunction(
            (widgets) => {
              const cards = [...document.querySelectorAll('[data-widget]')];
              const done =
                cards.length === widgets &&
                cards.every(
                  (card) => card.getAttribute('aria-busy') === 'false' && !card.querySelector('[role="status"]'),
                ) &&
                document.querySelectorAll('[data-widget] .highcharts-root').length >= 4 &&
                document.querySelector('[data-widget] .highcharts-map-series path') !== null;
              return done ? performance.now() : null;
            },
            model.widgets.length,
            { timeout: 60_000, polling: 10 },
          );
          times.push(Number(await drawn.jsonValue()));
          await page.close();
        }
        const [cold, ...warm] = times;
        progress(`browser ${from}: cold ${ms(cold ?? 0)}, warm ${warm.map((t) => ms(t)).join(', ')}`);
        rows.push([from, ms(cold ?? 0), ms(median(warm)), ms(Math.max(...warm))]);
      }
    } finally {
      await browser.close();
    }
  } finally {
    await stopProcess(server);
  }
  return [
    `In the browser (the built site and the API, \`server/main.ts\`, on the same database; Debian's Chromium headless at 1440×900, signed in): the overview dashboard (${dashboardTemplates.overview.model.widgets.length} widgets: 3 numbers, a pie, an area spline, the world map, a bar chart, a table) opened ${BROWSER_LOADS} times in new tabs; ms from the navigation's start until every widget has drawn its answer. Target: ≤ 1 500 ms.`,
    '',
    ...table(['range', 'first load (cold)', 'later loads, median', 'later loads, slowest'], rows),
  ];
}

if (import.meta.main) console.log(await benchDashboards());
