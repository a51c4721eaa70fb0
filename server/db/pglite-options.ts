/** How every PGlite of the project is opened: with the extensions the migrations create (pg_trgm for free text). */
import type { PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** PGlite's options for a data directory ('memory://' for a throwaway one). */
export function pgliteOptions(dataDir: string): PGliteOptions & { dataDir: string } {
  return { dataDir, extensions: { pg_trgm } };
}
