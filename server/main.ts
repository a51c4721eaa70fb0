/** `npm start`: builds the site if it is missing, migrates, then serves site and API on one port (127.0.0.1:4321 unless PORT/HOST say otherwise). */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createApi } from './api.ts';
import { jsonLogger } from './services/logger.ts';
import { startRetentionJob } from './services/retention.ts';
import { createSiteApp } from './site.ts';

const root = resolve(process.env.SITE_DIR ?? 'dist');
const port = Number(process.env.PORT ?? 4321);
const hostname = process.env.HOST ?? '127.0.0.1';

if (!existsSync(resolve(root, '_build/latest.json'))) {
  console.log(JSON.stringify({ level: 'info', msg: 'site not built yet: running astro build', root }));
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const api = await createApi(process.env);
// Events past each space's retention are deleted at start and then daily.
const retention = startRetentionJob(api.database.db, jsonLogger);
const app = new Hono();
// The API first (it answers every /api path itself, unknown ones with its JSON 404), then the site.
app.route('/', api.app);
app.all('/api/*', (c) => c.json({ error: { code: 'not_found', message: 'No such API path.' } }, 404));
app.route('/', createSiteApp(root));

const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  console.log(JSON.stringify({ level: 'info', msg: 'listening', url: `http://${hostname}:${info.port}` }));
});

// Graceful shutdown: stop accepting, let in-flight requests finish, then exit.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(JSON.stringify({ level: 'info', msg: 'shutting down', signal }));
    retention.stop();
    server.close(() => {
      void api.close().finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(1), 10_000).unref();
  });
}
