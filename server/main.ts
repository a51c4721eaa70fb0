/**
 * `npm start` (through server/start.js, which first checks the Node version): builds the site if it is missing,
 * migrates, then serves site and API on one port (127.0.0.1:4321 unless PORT/HOST say otherwise).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createApi } from './api.ts';
import { endAllWaits } from './services/firewalls/connector/version-signal.ts';
import { JobRunner } from './services/jobs/runner.ts';
import { backgroundWorkers } from './services/jobs/workers.ts';
import { jsonLogger, type Logger } from './services/shared/logger.ts';
import { createSiteApp } from './site.ts';

/** The running product: the API (and its database), its URL, and a graceful `stop()`. */
export type Running = {
  api: Awaited<ReturnType<typeof createApi>>;
  url: string;
  /** Stops accepting, answers held connector polls, lets in-flight requests and running jobs finish, closes the database. */
  stop(): Promise<void>;
};

/** Builds the site if needed, opens and migrates the database, starts the background jobs and listens. Shared by `npm start` and `npm run demo`. */
export async function start(
  env: Record<string, string | undefined> = process.env,
  log: Logger = jsonLogger,
): Promise<Running> {
  const root = resolve(env.SITE_DIR ?? 'dist');
  const port = Number(env.PORT ?? 4321);
  const hostname = env.HOST ?? '127.0.0.1';

  if (!existsSync(resolve(root, '_build/latest.json'))) {
    console.log(JSON.stringify({ level: 'info', msg: 'site not built yet: running astro build', root }));
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }

  const api = await createApi(env, log);
  // Background work (retention daily, ...) from the jobs table, shared with any other API process.
  const runner = new JobRunner({
    db: api.database.db,
    workers: backgroundWorkers,
    log,
    deps: api.deps,
    now: api.deps.now,
  });
  runner.start();
  const app = new Hono();
  // The API first (it answers every /api path itself, unknown ones with its JSON 404), then the site.
  app.route('/', api.app);
  app.all('/api/*', (c) => c.json({ error: { code: 'not_found', message: 'No such API path.' } }, 404));
  app.route('/', createSiteApp(root));

  let server: ReturnType<typeof serve> | undefined;
  const url = await new Promise<string>((done) => {
    server = serve({ fetch: app.fetch, port, hostname }, (info) => {
      const listening = `http://${hostname}:${info.port}`;
      console.log(JSON.stringify({ level: 'info', msg: 'listening', url: listening }));
      done(listening);
    });
  });
  return {
    api,
    url,
    async stop() {
      // Connectors' held long polls answer 304 now instead of holding the drain for up to a minute.
      endAllWaits();
      const drained = new Promise<void>((done) => server?.close(() => done()));
      // Running jobs get 5 s (stopOnSignal exits after 10); any still running are put back for another process.
      await Promise.all([drained, runner.stop(5_000)]);
      await api.close();
    },
  };
}

/** Graceful shutdown on SIGINT/SIGTERM: `stop()`, then exit 0; exit 1 if that takes over 10 s. */
export function stopOnSignal(stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log(JSON.stringify({ level: 'info', msg: 'shutting down', signal }));
      void stop().finally(() => process.exit(0));
      setTimeout(() => process.exit(1), 10_000).unref();
    });
  }
}

if (import.meta.main) {
  const running = await start();
  stopOnSignal(running.stop);
}
