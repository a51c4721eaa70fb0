import { createApp } from './app.ts';
import { buildDeps } from './build-deps.ts';
import { clockFromEnv } from './clock.ts';
import { readConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { searchLaneFor } from './services/events/search-lane.ts';
import { jsonLogger, type Logger } from './services/shared/logger.ts';

/**
 * The whole API from the environment: opens the database (PGlite in DATA_DIR, or DATABASE_URL),
 * applies pending migrations, and builds the app. `close()` closes the database after the server drained.
 */
export async function createApi(env: Record<string, string | undefined> = process.env, log: Logger = jsonLogger) {
  const config = readConfig(env);
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR, thread: true });
  await migrate(database);
  log({
    level: 'info',
    msg: 'api ready',
    database: database.driver === 'postgres' ? 'postgres (DATABASE_URL)' : `pglite (${env.DATA_DIR || './data'})`,
    mail: config.smtpUrl ? 'smtp' : 'development outbox',
    production: config.production,
    allowedOrigins: config.allowedOrigins,
    ...(env.DEV_CLOCK_OFFSET_DAYS && !config.production ? { clockOffsetDays: Number(env.DEV_CLOCK_OFFSET_DAYS) } : {}),
  });
  const now = clockFromEnv(env, config.production);
  const deps = buildDeps({ db: database.db, searches: searchLaneFor(database), config, log, now });
  const app = createApp({ db: database.db, deps });
  return { app, config, deps, database, close: () => database.close() };
}
