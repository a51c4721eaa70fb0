/**
 * `npm run bench`: builds the site (npm script), serves it with the project's own server,
 * measures every route and writes BENCHMARKS.md. Nothing here is asserted by tests.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { ROUTES } from '../src/lib/routes.ts';
import { lighthouseScores } from './lighthouse.ts';
import { weighPage } from './site-sizes.ts';

const PORT = Number(process.env.BENCH_PORT ?? 4510);
const BASE = `http://127.0.0.1:${PORT}`;
const SAMPLE: Record<string, string> = { space_id: 'space-1', id: 'item-1', waf_id: 'waf-1', token: 'token-1' };

async function startServer(): Promise<ChildProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'spaceguard-bench-'));
  const child = spawn(process.execPath, ['server/main.ts'], {
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, PUBLIC_URL: BASE },
    stdio: 'ignore',
  });
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      if ((await fetch(`${BASE}/_build/latest.json`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error('The server did not start.');
}

const kb = (bytes: number): string => (bytes / 1024).toFixed(1);

/** A signed-in session cookie, through the real API and the development outbox. */
async function signIn(): Promise<string> {
  const headers = { 'content-type': 'application/json', origin: BASE };
  const email = `bench-${Date.now()}@example.test`;
  const password = 'Bench-orbit-2026';
  await fetch(`${BASE}/api/auth/register`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Bench', email, password }),
  });
  const outbox = (await (await fetch(`${BASE}/api/dev/outbox`)).json()) as { items: { to: string; text: string }[] };
  const token = outbox.items.find((item) => item.to === email)?.text.match(/activation\/(\S+)/)?.[1];
  await fetch(`${BASE}/api/auth/activate`, { method: 'POST', headers, body: JSON.stringify({ token }) });
  const login = await fetch(`${BASE}/api/auth/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password }),
  });
  const cookie = login.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error(`Could not sign in for the benchmark (${login.status}).`);
  await fetch(`${BASE}/api/spaces`, {
    method: 'POST',
    headers: { ...headers, cookie },
    body: JSON.stringify({ name: 'Bench space' }),
  });
  return cookie;
}

// `node bench/run.ts ingest` (or events-query): that benchmark alone, printed; BENCHMARKS.md is left as it is.
const single: Record<string, () => Promise<string>> = {
  ingest: async () => (await import('./ingest.ts')).benchIngest(),
  'events-query': async () => (await import('./events-query.ts')).benchEventsQuery(),
};
const only = process.argv[2];
if (only) {
  const run = single[only];
  if (!run) {
    console.error(`Unknown benchmark "${only}"; one of: ${Object.keys(single).join(', ')}.`);
    process.exit(1);
  }
  console.log(await run());
  process.exit(0);
}

const server = await startServer();
const sections: string[] = [];
try {
  const paths = [
    ...ROUTES.map((route) => route.pattern.replace(/\{([a-z_]+)\}/g, (_m, name: string) => SAMPLE[name] ?? name)),
    '/no-such-page',
  ];
  const rows: string[] = [];
  for (const path of paths) {
    const w = await weighPage(BASE, path);
    rows.push(
      `| ${path} | ${w.islands} | ${kb(w.html[0])} / ${kb(w.html[1])} | ${kb(w.css[0])} / ${kb(w.css[1])} | ${kb(w.js[0])} / ${kb(w.js[1])} | ${kb(w.inlineJsGzip)} | ${kb(w.criticalGzip)} |`,
    );
  }
  sections.push(
    [
      '## Page weight per route',
      '',
      'KB raw / KB gzip (level 9). HTML includes the inlined CSS and the inline boot script; CSS is inline styles plus linked sheets; JS is the inline script plus every chunk an island loads when it hydrates (static imports followed; lazy `import()` excluded). Critical = HTML + CSS gzip. Targets: pages with no island ship only the inline script (≤ 3 KB gzip); critical ≤ 14 KB gzip.',
      '',
      '| route | islands | HTML | CSS | JS | inline JS gzip | critical gzip |',
      '|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
  );

  const scores = await lighthouseScores(BASE, ['/', '/auth/login', '/spaces', '/error'], await signIn());
  sections.push(
    [
      '## Lighthouse (mobile, default simulated throttling)',
      '',
      '`/spaces` is measured signed in (a session cookie sent by Lighthouse), with one space. The 404 page is measured at `/error`, which renders the same error page with status 200: Lighthouse refuses to audit a document answered with 404 and scores it 0.',
      '',
      '| page | performance | accessibility | best practices | SEO | audits under 0.9 |',
      '|---|---|---|---|---|---|',
      ...scores.map(
        (s) =>
          `| ${s.path} | ${s.performance} | ${s.accessibility} | ${s.bestPractices} | ${s.seo} | ${s.failing.join(', ') || '—'} |`,
      ),
    ].join('\n'),
  );

  const { benchIslands } = await import('./islands.ts');
  sections.push(await benchIslands());
} finally {
  server.kill('SIGTERM');
}

// The API in-process on PGlite and on PostgreSQL (no site server needed).
const { benchApi } = await import('./api.ts');
sections.push(await benchApi());

// Ingest over HTTP against a child server, and the event log's queries over 1 000 000 events.
const { benchIngest } = await import('./ingest.ts');
sections.push(await benchIngest());
const { benchEventsQuery } = await import('./events-query.ts');
sections.push(await benchEventsQuery());

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const report = [
  '# Benchmarks',
  '',
  `Machine: ${machine}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench\` (builds, serves \`dist/\` with \`server/main.ts\`, measures).`,
  '',
  ...sections.flatMap((section) => [section, '']),
].join('\n');
await writeFile('BENCHMARKS.md', report);
console.log(report);
