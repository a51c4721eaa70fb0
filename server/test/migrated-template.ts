/**
 * A migrated PGlite data directory, made once per version of the migrations and kept on disk, so each test file starts
 * from it instead of running initdb and every migration again (most of a test database's start-up time).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';

const migrations = resolve('server/db/migrations');

/** A digest of every migration and of PGlite's version: a change of either makes a new template. */
function digest(): string {
  const hash = createHash('sha256');
  for (const folder of [migrations, join(migrations, 'meta')]) {
    for (const name of readdirSync(folder).sort()) {
      if (!/\.(sql|json)$/.test(name)) continue;
      hash.update(name).update(readFileSync(join(folder, name)));
    }
  }
  const pglite = JSON.parse(readFileSync(resolve('node_modules/@electric-sql/pglite/package.json'), 'utf8')) as {
    version: string;
  };
  return hash.update(pglite.version).digest('hex').slice(0, 16);
}

let cached: Promise<Blob> | undefined;

/** The template's dump, made now if this version of the migrations has none yet. */
export function migratedTemplate(): Promise<Blob> {
  cached ??= (async () => {
    const folder = resolve('node_modules/.cache/spaceguard-tests');
    const file = join(folder, `pglite-migrated-${digest()}.tar`);
    try {
      return new Blob([readFileSync(file)]);
    } catch {
      // Not made yet: make it (several workers may race; each writes its own file and renames it into place).
      const database = await openDatabase({ dataDir: 'memory://' });
      await migrate(database, { migrationsFolder: migrations });
      const dump = await (database.pglite as NonNullable<typeof database.pglite>).dumpDataDir('none');
      await database.close();
      const bytes = new Uint8Array(await dump.arrayBuffer());
      mkdirSync(folder, { recursive: true });
      const partial = `${file}.${process.pid}.${Date.now()}`;
      writeFileSync(partial, bytes);
      renameSync(partial, file);
      return new Blob([bytes]);
    }
  })();
  return cached;
}
