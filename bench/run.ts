/**
 * `npm run bench`: builds the site (npm script), serves it with the project's own server,
 * measures every route and writes BENCHMARKS.md. Nothing here is asserted by tests.
 */
import { writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { chromium } from '@playwright/test';
import { ROUTES } from '../src/lib/routes.ts';
import { tempDir } from './lib/databases.ts';
import { kb, table } from './lib/format.ts';
import { sendJson, signUp } from './lib/http.ts';
import { describeSettings, startBenchPostgres } from './lib/postgres-server.ts';
import { spawnNode, stopProcess, waitForUrl } from './lib/processes.ts';
import { lighthouseScores } from './lighthouse.ts';
import { weighScripts } from './page-scripts.ts';
import { weighPage } from './site-sizes.ts';

const PORT = Number(process.env.BENCH_PORT ?? 4510);
const BASE = `http://127.0.0.1:${PORT}`;
const SAMPLE: Record<string, string> = { space_id: 'space-1', id: 'item-1', waf_id: 'waf-1', token: 'token-1' };

/** A signed-in session cookie with one space, through the real API and the development outbox. */
async function signInWithSpace(): Promise<{ cookie: string; spaceId: string }> {
  const cookie = await signUp(fetch, BASE, `bench-${Date.now()}@example.test`, 'Bench-orbit-2026');
  const res = await sendJson(fetch, 'POST', `${BASE}/api/spaces`, { name: 'Bench space' }, { cookie });
  const { id } = (await res.json()) as { id: string };
  return { cookie, spaceId: id };
}

/**
 * JavaScript before interaction per route, as a browser fetches it (bench/page-scripts.ts, the page-budget test's
 * own count): signed in, in a new space with no data, every route opened in Chromium and scrolled through once.
 */
async function benchScriptsBeforeInteraction(cookie: string, spaceId: string): Promise<string> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const rows: string[][] = [];
  try {
    const context = await browser.newContext({ baseURL: BASE });
    const equals = cookie.indexOf('=');
    await context.addCookies([{ name: cookie.slice(0, equals), value: cookie.slice(equals + 1), url: BASE }]);
    const page = await context.newPage();
    const paths = [
      ...ROUTES.map((route) =>
        route.pattern.replace(/\{([a-z_]+)\}/g, (_m, key: string) =>
          key === 'space_id' ? spaceId : (SAMPLE[key] ?? key),
        ),
      ),
      '/no-such-page',
    ];
    for (const path of paths) {
      const weight = await weighScripts(page, path);
      rows.push([
        path.replace(spaceId, '{space}'),
        String(weight.files.filter((file) => !file.chart).length),
        kb(weight.total),
        weight.chart > 0 ? kb(weight.chart) : '–',
      ]);
    }
  } finally {
    await browser.close();
  }
  return [
    '## JavaScript before interaction per route',
    '',
    'Every script a page fetches from opening until it has settled after being scrolled through once (islands hydrated on `client:visible` and chunks loaded because something became visible included), plus its inline scripts; each file gzipped at level 9 on its own, summed. Signed in, in a new space with no data, in Chromium. Chart code (Highcharts and its modules, the `chart-*` chunks) loads only when a chart is drawn and is shown apart. Budget: ≤ 100 KB gzip before interaction on every route (`tests/e2e/page-budget.spec.ts` counts the same way).',
    '',
    ...table(['route', 'files', 'KB gzip before interaction', 'chart code KB gzip (when a chart is drawn)'], rows),
  ].join('\n');
}

/**
 * Page weight of every route and Lighthouse (mobile) of the public pages and every console route, signed in, with
 * one space: against the built site served by the project's own server, which the caller started.
 */
async function benchSite(): Promise<string[]> {
  const sections: string[] = [];
  const paths = [
    ...ROUTES.map((route) => route.pattern.replace(/\{([a-z_]+)\}/g, (_m, name: string) => SAMPLE[name] ?? name)),
    '/no-such-page',
  ];
  const rows: string[][] = [];
  for (const path of paths) {
    const w = await weighPage(BASE, path);
    rows.push([
      path,
      String(w.islands),
      `${kb(w.html[0])} / ${kb(w.html[1])}`,
      `${kb(w.css[0])} / ${kb(w.css[1])}`,
      `${kb(w.js[0])} / ${kb(w.js[1])}`,
      kb(w.inlineJsGzip),
      kb(w.criticalGzip),
    ]);
  }
  sections.push(
    [
      '## Page weight per route',
      '',
      'KB raw / KB gzip (level 9). HTML includes the inlined CSS and the inline boot script; CSS is inline styles plus linked sheets; JS is the inline script plus every chunk an island loads when it hydrates (static imports followed; lazy `import()` excluded: charts, Markdown, editors, drawers and tabs past the first load when first shown). Critical = HTML + CSS gzip. Targets: pages with no island ship only the inline script (≤ 3 KB gzip); critical ≤ 14 KB gzip; JS ≤ 100 KB gzip on every route (`tests/e2e/page-budget.spec.ts` holds it).',
      '',
      ...table(['route', 'islands', 'HTML', 'CSS', 'JS', 'inline JS gzip', 'critical gzip'], rows),
    ].join('\n'),
  );

  const { cookie, spaceId } = await signInWithSpace();
  const consolePaths = ROUTES.filter((route) => route.pattern.startsWith('/console/')).map((route) =>
    route.pattern.replace(/\{([a-z_]+)\}/g, (_m, name: string) =>
      name === 'space_id' ? spaceId : (SAMPLE[name] ?? name),
    ),
  );
  sections.push(await benchScriptsBeforeInteraction(cookie, spaceId));
  const scores = await lighthouseScores(BASE, ['/', '/auth/login', '/spaces', '/error', ...consolePaths], cookie);
  sections.push(
    [
      '## Lighthouse (mobile, default simulated throttling)',
      '',
      '`/spaces` and the console routes are measured signed in (a session cookie sent by Lighthouse), in a new space with no data; routes with an item id get one that does not exist, so they show their not-found state. The 404 page is measured at `/error`, which renders the same error page with status 200: Lighthouse refuses to audit a document answered with 404 and scores it 0.',
      '',
      ...table(
        ['page', 'performance', 'accessibility', 'best practices', 'SEO', 'audits under 0.9'],
        scores.map((s) => [
          s.path.replace(spaceId, '{space}'),
          s.performance,
          s.accessibility,
          s.bestPractices,
          s.seo,
          s.failing.join(', ') || '—',
        ]),
      ),
    ].join('\n'),
  );
  return sections;
}

// `node bench/run.ts api` (or site, islands, ingest, events-query, retention, firewall, search-load, jobs, alerts, vulns, dashboards, billing): that section alone, printed; BENCHMARKS.md is left
// as it is. These sections need no built site.
const single: Record<string, () => Promise<string>> = {
  api: async () => (await import('./api.ts')).benchApi(),
  islands: async () => (await import('./islands.ts')).benchIslands(),
  ingest: async () => (await import('./ingest.ts')).benchIngest(),
  'events-query': async () => (await import('./events-query.ts')).benchEventsQuery(),
  firewall: async () => (await import('./firewall.ts')).benchFirewall(),
  'search-load': async () => (await import('./search-load.ts')).benchSearchLoad(),
  retention: async () => (await import('./retention.ts')).benchRetention(),
  jobs: async () => (await import('./jobs.ts')).benchJobs(),
  alerts: async () => (await import('./alerts.ts')).benchAlerts(),
  vulns: async () => (await import('./vulns.ts')).benchVulns(),
  dashboards: async () => (await import('./dashboards.ts')).benchDashboards(),
  billing: async () => (await import('./billing.ts')).benchBilling(),
};
const only = process.argv[2];
// `node bench/run.ts site`: page weights and Lighthouse against the built site (run `npm run build` first), printed.
if (only === 'site') {
  const dataDir = tempDir('spaceguard-bench-');
  const server = spawnNode('server/main.ts', [], { PORT: String(PORT), DATA_DIR: dataDir.path, PUBLIC_URL: BASE });
  try {
    await waitForUrl(server, `${BASE}/_build/latest.json`, 60);
    console.log((await benchSite()).join('\n\n'));
  } finally {
    await stopProcess(server);
    dataDir.remove();
  }
  process.exit(0);
}
if (only) {
  const run = single[only];
  if (!run) {
    console.error(`Unknown benchmark "${only}"; one of: ${Object.keys(single).join(', ')}.`);
    process.exit(1);
  }
  // The sections on PostgreSQL run on the benches' own server (bench/lib/postgres-server.ts).
  const postgres = ['islands', 'firewall', 'vulns', 'billing'].includes(only) ? null : startBenchPostgres();
  try {
    console.log(await run());
  } finally {
    postgres?.stop();
  }
  process.exit(0);
}

const dataDir = tempDir('spaceguard-bench-');
const server = spawnNode('server/main.ts', [], { PORT: String(PORT), DATA_DIR: dataDir.path, PUBLIC_URL: BASE });
await waitForUrl(server, `${BASE}/_build/latest.json`, 60);
const sections: string[] = [];
try {
  sections.push(...(await benchSite()));

  const { benchIslands } = await import('./islands.ts');
  sections.push(await benchIslands());
} finally {
  await stopProcess(server);
  dataDir.remove();
}

// Every section on PostgreSQL uses the benches' own server, started once (bench/lib/postgres-server.ts).
const postgres = startBenchPostgres();
// The API in-process on PGlite and on PostgreSQL (no site server needed).
const { benchApi } = await import('./api.ts');
sections.push(await benchApi());

// Ingest over HTTP against a child server, and the event log's queries over 1 000 000 events.
const { benchIngest } = await import('./ingest.ts');
sections.push(await benchIngest());
const { benchEventsQuery } = await import('./events-query.ts');
sections.push(await benchEventsQuery());
sections.push(await (await import('./retention.ts')).benchRetention());
sections.push(await (await import('./firewall.ts')).benchFirewall());
sections.push(await (await import('./search-load.ts')).benchSearchLoad());
sections.push(await (await import('./jobs.ts')).benchJobs());
sections.push(await (await import('./alerts.ts')).benchAlerts());
sections.push(await (await import('./vulns.ts')).benchVulns());
sections.push(await (await import('./dashboards.ts')).benchDashboards());
sections.push(await (await import('./billing.ts')).benchBilling());

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const report = [
  '# Benchmarks',
  '',
  `Machine: ${machine}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench\` (builds, serves \`dist/\` with \`server/main.ts\`, measures).`,
  '',
  `PostgreSQL: every section on PostgreSQL uses ${describeSettings(postgres.settings)}.`,
  '',
  ...sections.flatMap((section) => [section, '']),
].join('\n');
await writeFile('BENCHMARKS.md', report);
console.log(report);
