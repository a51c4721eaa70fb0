/**
 * One clock: after every migration no column of the database takes a time from the database's clock, so
 * a row is stamped with the application's time or not at all (an insert that forgets it fails, it is not quietly
 * stamped with another clock). Runs on PGlite and, in `npm run test:api:pg`, on PostgreSQL.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freshDatabase } from '../test/harness.ts';
import { type Database, rowsOf } from './database.ts';
import { users } from './schema/users.ts';

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let database: Database;
beforeAll(async () => {
  fresh = await freshDatabase();
  database = fresh.database;
}, 120_000);
afterAll(() => fresh?.drop());

test('no column default reads the database clock', async () => {
  const result = await database.db.execute(
    `select table_name || '.' || column_name as "column", column_default as "default"
     from information_schema.columns
     where table_schema = 'public'
       and column_default ~* '(now|clock_timestamp|statement_timestamp|transaction_timestamp)\\(|current_(timestamp|date|time)|localtime'
     order by 1`,
  );
  expect(rowsOf(result)).toEqual([]);
});

test('an insert that gives no time is refused rather than stamped by the database', async () => {
  await expect(
    database.db.insert(users).values({ email: 'a@example.com', name: 'A', passwordHash: 'x' } as never),
  ).rejects.toThrow(/created_at|not-null|null value/i);
});
