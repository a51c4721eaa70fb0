import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from './database.ts';

const lockId = 7_061_532_004; // arbitrary advisory lock id: one migrator at a time across instances

/** Where the generated SQL migrations live (overridable where import.meta.url is not a file URL, as under jsdom). */
function defaultFolder(): string {
  return fileURLToPath(new URL('./migrations', import.meta.url));
}

/** Applies the versioned SQL migrations that are not applied yet. */
export async function migrate(database: Database, options: { migrationsFolder?: string } = {}): Promise<void> {
  const migrationsFolder = options.migrationsFolder ?? defaultFolder();
  const pglite = database.pglite ?? (database.pgliteThread as unknown as PGlite | undefined);
  if (pglite) {
    await migratePglite(drizzlePglite({ client: pglite }), { migrationsFolder });
    return;
  }
  if (!database.pool) throw new Error('database has neither a PGlite client nor a pool');
  // Several API instances may start together: serialise them on an advisory lock.
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [lockId]);
    await migratePg(drizzlePg({ client }), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [lockId]).catch(() => undefined);
    client.release();
  }
}
