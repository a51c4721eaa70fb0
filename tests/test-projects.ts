/**
 * Which API test files run on a database, and so twice (PGlite in `npm run test:unit`, PostgreSQL in
 * `npm run test:api:pg`), and which run once. vitest.config.ts builds its `db` and `node` projects from this, and
 * tests/architecture.test.ts holds the `node` files to it.
 *
 * The rule, read from the source so that no test has to be named or placed for it: a test file is a database test
 * when it, or any repository module it imports (value imports, followed to the end, dynamic `import('…')` and
 * `new URL('…', import.meta.url)` workers included), imports PGlite (`@electric-sql/pglite…`), node-postgres (`pg`)
 * or Drizzle's driver for either, or names the suite's database variable (`TEST_` `DATABASE_URL`, anywhere in its
 * text); every `*.pg.test.ts` is one too.
 * A relative import that cannot be followed counts as a database, so the rule can only err towards running a file
 * twice. Child processes are not followed: one that a test starts opens its own database from the environment it is
 * given (the demo's test starts it on PGlite whatever the suite runs on).
 */
import { existsSync, globSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Where the API's tests live (vitest's `node` and `db` projects together). */
export const apiTestGlobs = [
  'server/**/*.test.ts',
  'contract/**/*.test.ts',
  'site-config/**/*.test.ts',
  'tests/*.test.ts',
  'bench/crs-regression/*.test.ts',
];

const root = resolve(import.meta.dirname, '..');

const databasePackage = /^(pg|@electric-sql\/pglite|drizzle-orm\/(pglite|node-postgres))(\/|$)/;
/** The suite's database variable, spelt in pieces so that this file, which the architecture test imports, does not name it. */
export const databaseVariable = ['TEST', 'DATABASE', 'URL'].join('_');
const namesDatabaseVariable = new RegExp(`\\b${databaseVariable}\\b`);
const valueImport =
  /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\bnew\s+URL\(\s*['"](\.[^'"]+)['"]\s*,\s*import\.meta\.url/gm;
const followed = /\.(ts|tsx|mts|js|mjs)$/;

/** What a module imports: repository files (absolute) and packages, each read once. */
const edges = new Map<string, { files: string[]; database: string | null }>();

function edgesOf(file: string): { files: string[]; database: string | null } {
  const known = edges.get(file);
  if (known) return known;
  const text = readFileSync(file, 'utf8');
  const found: { files: string[]; database: string | null } = {
    files: [],
    database: namesDatabaseVariable.test(text) ? `names ${databaseVariable}` : null,
  };
  for (const match of text.matchAll(valueImport)) {
    const from = match[1] ?? match[2] ?? match[3] ?? '';
    if (databasePackage.test(from)) found.database ??= `imports ${from}`;
    if (!from.startsWith('.')) continue;
    const base = resolve(dirname(file), from);
    const path = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find(
      (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
    );
    // A folder or a data file that a `new URL(…)` names (the migrations folder) is read, not run.
    if (path === undefined && !existsSync(base)) found.database ??= `cannot follow ${from}`;
    else if (path !== undefined && followed.test(path)) found.files.push(path);
  }
  edges.set(file, found);
  return found;
}

/** Why a test file runs on a database (the import chain to it), or null when it never opens one. */
export function databaseReason(testFile: string): string | null {
  if (testFile.endsWith('.pg.test.ts')) return 'is a *.pg.test.ts';
  const start = resolve(root, testFile);
  const cameFrom = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const { files, database } = edgesOf(file);
    if (database) {
      const chain: string[] = [];
      for (let at: string | null | undefined = file; at; at = cameFrom.get(at)) chain.unshift(relative(root, at));
      return `${chain.join(' → ')} ${database}`;
    }
    for (const next of files) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      queue.push(next);
    }
  }
  return null;
}

/** Every API test file (repository paths, sorted), split into those on a database and those without one. */
export function apiTestProjects(): { db: string[]; node: string[] } {
  const files = [...new Set(apiTestGlobs.flatMap((glob) => globSync(glob, { cwd: root })))]
    .filter((file) => !file.split('/').includes('node_modules'))
    .sort();
  const onDatabase = new Set(files.filter((file) => databaseReason(file) !== null));
  return { db: files.filter((file) => onDatabase.has(file)), node: files.filter((file) => !onDatabase.has(file)) };
}

/** `node tests/test-projects.ts` prints each API test file with its project and, for the db ones, why. */
if (import.meta.main) {
  const { db, node } = apiTestProjects();
  for (const file of db) console.log(`db    ${file}: ${databaseReason(file)}`);
  for (const file of node) console.log(`node  ${file}`);
  console.log(`${db.length} db, ${node.length} node`);
}
