/** The search lane on the database the suite runs on (PGlite, or PostgreSQL when TEST_DATABASE_URL is set). */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { driverOf, type Executor } from '../../db/database.ts';
import { ApiError } from '../../errors.ts';
import { freshDatabase } from '../../test/harness.ts';
import { createSearchLane, type SearchLaneOptions } from './search-lane.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  fresh = await freshDatabase({ thread: true });
});
afterAll(async () => {
  await fresh?.drop();
});

function lane(options: Partial<SearchLaneOptions> = {}) {
  const postgres = driverOf(fresh.database.searchDb) === 'postgres';
  return createSearchLane({
    db: fresh.database.searchDb,
    bound: postgres ? 'statement' : 'deadline',
    slots: 1,
    queue: 1,
    ...options,
  });
}

/** A search that reads a few million rows: long on either backend. */
const long = (db: Executor) =>
  db.execute(sql`select count(*) from generate_series(1, 4000000) as g where g::text like '%99%'`);

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

test('a search past its budget answers 400 query_timeout on the query, naming the budget', async () => {
  const error = await rejection(lane({ budgets: { page: 100 } }).run('page', long));
  expect(error.status).toBe(400);
  expect(error.code).toBe('query_timeout');
  expect(error.fields?.q).toBe(
    'This search ran for more than 0.1 s and was stopped. Narrow the time range or make the query more specific.',
  );
});

test('past the running searches and the queue, a search is refused with 503 and Retry-After; the others answer', async () => {
  const l = lane({ slots: 1, queue: 1 });
  const first = l.run('facets', long);
  const second = l.run('facets', (db) => db.execute(sql`select 1 as one`));
  expect(l.load()).toEqual({ running: 1, waiting: 1 });
  const third = await rejection(l.run('facets', (db) => db.execute(sql`select 1 as one`)));
  expect(third.status).toBe(503);
  expect(third.code).toBe('search_busy');
  expect(third.retryAfter).toBe(5);
  await expect(first).resolves.toBeTruthy();
  await expect(second).resolves.toBeTruthy();
  expect(l.load()).toEqual({ running: 0, waiting: 0 });
});

test('a search that failed frees its slot: the next one runs', async () => {
  const l = lane({ slots: 1, queue: 0 });
  await expect(l.run('page', (db) => db.execute(sql`select no_such_column from no_such_table`))).rejects.toThrow();
  await expect(l.run('page', (db) => db.execute(sql`select 1 as one`))).resolves.toBeTruthy();
});

test('the next search starts only when the database is done with one that ran past its budget', async () => {
  const l = lane({ slots: 1, queue: 1, budgets: { page: 100 } });
  const order: string[] = [];
  const first = l.run('page', async (db) => {
    try {
      return await long(db);
    } finally {
      order.push('first search ended in the database');
    }
  });
  const second = l.run('page', async (db) => {
    order.push('second search started');
    return db.execute(sql`select 1 as one`);
  });
  expect((await rejection(first)).code).toBe('query_timeout');
  await second;
  expect(order).toEqual(['first search ended in the database', 'second search started']);
});
