import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { pgliteOptions } from './pglite-options.ts';
import { PgliteThread } from './pglite-thread.ts';
import * as schema from './schema/index.ts';

/** The typed Drizzle handle every route uses, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction, or the database itself: what a helper that writes needs. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

/** An open database: the Drizzle handle plus what is needed to migrate and close it. */
export type Database = {
  db: Db;
  /**
   * Where event-log searches run. On PostgreSQL a small pool of its own, so that searches can never hold the
   * connections sign-in, ingest and the health check need; on PGlite (one connection) the same handle as `db`.
   */
  searchDb: Db;
  driver: 'pglite' | 'postgres';
  /** PGlite on this thread (tests, benchmarks, the demo's bulk load). */
  pglite?: PGlite;
  /** PGlite on a worker thread (the server), so a long query never freezes the process. */
  pgliteThread?: PgliteThread;
  pool?: pg.Pool;
  close(): Promise<void>;
};

/** Connections of the main pool (sign-in, ingest, health, every other route). */
export const MAIN_POOL_SIZE = 10;
/** Connections of the search pool: at most this many searches run at once on PostgreSQL. */
export const SEARCH_POOL_SIZE = 3;

export type OpenDatabaseOptions = {
  /** `postgres://` URL of a PostgreSQL server; without it PGlite is used. */
  url?: string | undefined;
  /** PGlite data directory (default ./data); 'memory://' for a throwaway in-memory database. */
  dataDir?: string | undefined;
  /** Run PGlite on a worker thread (what the server does) instead of this one. */
  thread?: boolean;
  /** Start PGlite from this dump of a data directory (`dumpDataDir`) instead of an empty one (tests, this thread only). */
  loadDataDir?: Blob | File | undefined;
};

function pgPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  // A connection lost while idle (server restart, admin termination) must not crash the process:
  // the pool replaces it on the next query.
  pool.on('error', (error) => {
    console.error(JSON.stringify({ level: 'warn', msg: 'idle database connection lost', error: error.message }));
  });
  return pool;
}

/** Opens PGlite (embedded, the default) or a PostgreSQL server when a URL is given. */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const url = options.url?.trim();
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const pool = pgPool(url, MAIN_POOL_SIZE);
    const searchPool = pgPool(url, SEARCH_POOL_SIZE);
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    const searchDb = drizzlePg({ client: searchPool, schema }) as unknown as Db;
    return {
      db,
      searchDb,
      driver: 'postgres',
      pool,
      close: async () => {
        await Promise.all([pool.end(), searchPool.end()]);
      },
    };
  }
  const dataDir = options.dataDir ?? './data';
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  if (options.thread) {
    const pgliteThread = await PgliteThread.open(dataDir);
    const db = drizzlePglite({ client: pgliteThread as unknown as PGlite, schema }) as unknown as Db;
    return { db, searchDb: db, driver: 'pglite', pgliteThread, close: () => pgliteThread.close() };
  }
  const pglite = await PGlite.create({
    ...pgliteOptions(dataDir),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  return { db, searchDb: db, driver: 'pglite', pglite, close: () => pglite.close() };
}

/** Which database is behind a Drizzle handle: a node-postgres pool or PGlite. */
export function driverOf(db: Db): Database['driver'] {
  return (db as unknown as { $client?: unknown }).$client instanceof pg.Pool ? 'postgres' : 'pglite';
}

/** The rows of a raw `db.execute()` result: both drivers (node-postgres, PGlite) answer `{ rows }`. */
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

/** One round trip, for the health check. */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
