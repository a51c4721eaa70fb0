import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema/index.ts';

/** The typed Drizzle handle every route uses, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction, or the database itself: what a helper that writes needs. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

/** An open database: the Drizzle handle plus what is needed to migrate and close it. */
export type Database = {
  db: Db;
  driver: 'pglite' | 'postgres';
  pglite?: PGlite;
  pool?: pg.Pool;
  close(): Promise<void>;
};

export type OpenDatabaseOptions = {
  /** `postgres://` URL of a PostgreSQL server; without it PGlite is used. */
  url?: string | undefined;
  /** PGlite data directory (default ./data); 'memory://' for a throwaway in-memory database. */
  dataDir?: string | undefined;
};

/** Opens PGlite (embedded, the default) or a PostgreSQL server when a URL is given. */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const url = options.url?.trim();
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // A connection lost while idle (server restart, admin termination) must not crash the process:
    // the pool replaces it on the next query.
    pool.on('error', (error) => {
      console.error(JSON.stringify({ level: 'warn', msg: 'idle database connection lost', error: error.message }));
    });
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    return { db, driver: 'postgres', pool, close: () => pool.end() };
  }
  const dataDir = options.dataDir ?? './data';
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir);
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  return { db, driver: 'pglite', pglite, close: () => pglite.close() };
}

/** The rows of a raw `db.execute()` result: both drivers (node-postgres, PGlite) answer `{ rows }`. */
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

/** One round trip, for the health check. */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
