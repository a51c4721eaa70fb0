/** The storage layer: open, migrate, and the typed handle. */
export { type Database, type Db, type Executor, type OpenDatabaseOptions, openDatabase, type Tx } from './database.ts';
export { migrate } from './migrate.ts';
export * as schema from './schema/index.ts';
