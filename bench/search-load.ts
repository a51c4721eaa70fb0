/**
 * `node bench/run.ts search-load`: how long /api/health and a sign-in take while ten of the costliest searches the
 * query budget allows are in flight, on PGlite (worker thread, on disk) and on PostgreSQL, the API
 * in-process as the server builds it (search lane included).
 */
import { randomBytes } from 'node:crypto';
import { queryLimits } from '../contract/constants/events.ts';
import { createApp } from '../server/app.ts';
import { type Database, openDatabase } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { searchLaneFor } from '../server/services/events/search-lane.ts';
import { silentLogger } from '../server/services/shared/logger.ts';
import { insertEvents, worstQuery } from '../server/test/worst-searches.ts';
import { postgresDatabase, tempDir } from './lib/databases.ts';
import { loadAverage, ms, table } from './lib/format.ts';
import { type Fetcher, sendJson, signIn, signUp } from './lib/http.ts';

const BASE = 'http://bench.local';
const PASSWORD = 'Bench-orbit-2026';
const SEARCHES = 10;
const SAMPLES = 5;

type Backend = { label: string; events: number; database: Database; cleanup(): Promise<void> };

async function pglite(): Promise<Backend> {
  const dir = tempDir('sg-bench-load-');
  const database = await openDatabase({ dataDir: dir.path, thread: true });
  return {
    label: 'PGlite (worker thread, tmp dir)',
    events: 30_000,
    database,
    async cleanup() {
      await database.close().catch(() => undefined);
      dir.remove();
    },
  };
}

async function postgres(): Promise<Backend> {
  const created = await postgresDatabase(`sg_bench_${randomBytes(6).toString('hex')}`);
  const database = await openDatabase({ url: created.url });
  return {
    label: 'PostgreSQL (main pool 10, search pool 3)',
    events: 300_000,
    database,
    async cleanup() {
      await database.close().catch(() => undefined);
      await created.drop();
    },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function measure(make: () => Promise<Backend>): Promise<string[]> {
  const backend = await make();
  try {
    const { database } = backend;
    await migrate(database);
    const app = createApp({
      db: database.db,
      searches: searchLaneFor(database),
      config: { publicUrl: BASE, allowedOrigins: [BASE], production: false, trustProxy: false, smtpUrl: undefined },
      log: silentLogger,
    });
    const fetcher: Fetcher = async (url, init) => app.request(url, init);
    const email = `load-${Date.now()}@example.test`;
    const cookie = await signUp(fetcher, BASE, email, PASSWORD);
    const space = (await (
      await sendJson(fetcher, 'POST', `${BASE}/api/spaces`, { name: 'Load' }, { cookie })
    ).json()) as {
      id: string;
    };
    const source = (await (
      await sendJson(
        fetcher,
        'POST',
        `${BASE}/api/spaces/${space.id}/sources`,
        { name: 'waf', kind: 'json' },
        { cookie },
      )
    ).json()) as { id: string };
    await insertEvents(database.db, space.id, source.id, backend.events);

    const timeOf = async (call: () => Promise<Response>) => {
      const start = performance.now();
      const res = await call();
      await res.arrayBuffer();
      return { ms: performance.now() - start, status: res.status };
    };
    const health = () => timeOf(() => fetcher(`${BASE}/api/health`));
    const login = () =>
      timeOf(() => sendJson(fetcher, 'POST', `${BASE}/api/auth/login`, { email, password: PASSWORD }));
    await signIn(fetcher, BASE, email, PASSWORD);
    const idleHealth: number[] = [];
    const idleLogin: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      idleHealth.push((await health()).ms);
      idleLogin.push((await login()).ms);
    }

    const q = encodeURIComponent(worstQuery());
    const searches = Array.from({ length: SEARCHES }, () =>
      timeOf(() =>
        fetcher(`${BASE}/api/spaces/${space.id}/events/facets?q=${q}&from=2000-01-01T00:00:00Z`, {
          headers: { cookie },
        }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const loadHealth: number[] = [];
    const loadLogin: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      loadHealth.push((await health()).ms);
      loadLogin.push((await login()).ms);
    }
    const answered = await Promise.all(searches);
    const byStatus = (status: number) => answered.filter((a) => a.status === status);
    const ok = byStatus(200);
    return [
      backend.label,
      backend.events.toLocaleString('en'),
      `${ms(median(idleHealth))} / ${ms(median(loadHealth))}`,
      `${ms(median(idleLogin))} / ${ms(median(loadLogin))}`,
      `${ok.length} / ${byStatus(400).length} / ${byStatus(503).length}`,
      ok.length ? ms(Math.max(...ok.map((a) => a.ms)), 0) : '—',
    ];
  } finally {
    await backend.cleanup();
  }
}

export async function benchSearchLoad(): Promise<string> {
  const load = loadAverage();
  const rows = [await measure(pglite), await measure(postgres)];
  return [
    '## Health and sign-in under ten worst-case searches',
    '',
    `\`node bench/run.ts search-load\`. Ten facet searches over all time with the costliest query the budget allows (${queryLimits.textTerms} quoted text searches and ${queryLimits.orWidth - queryLimits.textTerms} \`ip:\` ranges joined by OR, matching nothing) are sent at once; 50 ms later ${SAMPLES} health checks and ${SAMPLES} sign-ins are timed one after the other while they run (median, ms; idle = the same before the searches). Searches answered: 200 / 400 query_timeout / 503 search_busy. The API runs in-process as the server builds it. Load average before: ${load}.`,
    '',
    ...table(
      [
        'backend',
        'events',
        'health idle / under load',
        'sign-in idle / under load',
        'searches 200 / 400 / 503',
        'slowest search',
      ],
      rows,
    ),
  ].join('\n');
}
