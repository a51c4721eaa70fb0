/**
 * The API's tests are split into vitest's `node` project (run once) and `db` project (run on PGlite, then again on
 * PostgreSQL by `npm run test:api:pg`) by tests/test-projects.ts. These checks fail when a test would be lost or when
 * one that opens a database would run on one database only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { apiTestProjects, databaseReason, databaseVariable } from './test-projects.ts';

const root = resolve(import.meta.dirname, '..');
const { db, node } = apiTestProjects();

/** Every `*.test.ts` outside src/ (the `site` project's), found by walking the folders rather than by the globs. */
function testFilesOutsideSrc(): string[] {
  return ['server', 'contract', 'site-config', 'tests', 'bench']
    .flatMap((folder) => readdirSync(join(root, folder), { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((file) => !file.split('/').includes('node_modules'))
    .sort();
}

test('every API test file runs in exactly one of the node and db projects', () => {
  expect(db.filter((file) => node.includes(file))).toEqual([]);
  expect([...db, ...node].sort()).toEqual(testFilesOutsideSrc());
});

test('no test of the node project names a database helper, a database driver or the database variable', () => {
  const helper = new RegExp(
    [
      String.raw`\b(freshDatabase|createTestApi|anotherHandle|databaseOfFile|openDatabase|migratedTemplate|PGlite|${databaseVariable})\b`,
      String.raw`\btest/(harness|jobs|migrated-template)\.ts`,
      String.raw`from\s+['"](pg|@electric-sql/pglite[^'"]*|drizzle-orm/(pglite|node-postgres))['"]`,
    ].join('|'),
  );
  // This file names them to look for them.
  const offenders = node
    .filter((file) => file !== 'tests/test-projects.test.ts')
    .filter((file) => helper.test(readFileSync(join(root, file), 'utf8')));
  expect(offenders).toEqual([]);
});

test('a test reaches the database through any chain of imports, and *.pg.test.ts always does', () => {
  // The harness, the driver, a service that imports the database module: each puts its test in the db project.
  expect(databaseReason('server/routes/alerts.test.ts')).toMatch(/server\/test\/harness\.ts/);
  expect(databaseReason('server/services/events/tiers.test.ts')).toMatch(/tiers\.ts → server\/db\/database\.ts/);
  expect(databaseReason('server/routes/connector-notify.pg.test.ts')).toBe('is a *.pg.test.ts');
  expect(databaseReason('server/services/firewalls/compile/golden.test.ts')).toBeNull();
});
