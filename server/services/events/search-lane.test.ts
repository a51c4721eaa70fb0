/** The search lane on the database the suite runs on (PGlite, or PostgreSQL when TEST_DATABASE_URL is set). */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { driverOf, type Executor } from '../../db/database.ts';
import { ApiError } from '../../errors.ts';
import { freshDatabase } from '../../test/harness.ts';
import {
  createSearchLane,
  type SearchKind,
  type SearchLane,
  type SearchLaneOptions,
  searchLaneFor,
} from './search-lane.ts';

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
  const error = await rejection(lane({ budgets: { page: 100 } }).run('page', 'space-a', long));
  expect(error.status).toBe(400);
  expect(error.code).toBe('query_timeout');
  expect(error.fields?.q).toBe(
    'This search ran for more than 0.1 s and was stopped. Narrow the time range or make the query more specific.',
  );
});

test('past the running searches and the queue, a search is refused with 503 and Retry-After; the others answer', async () => {
  const l = lane({ slots: 1, queue: 1 });
  const s = gatedSearches(l);
  try {
    s.start('first', 'space-a');
    s.start('second', 'space-a');
    expect(l.load()).toEqual({ running: 1, waiting: 1 });
    const third = await rejection(l.run('facets', 'space-a', (db) => db.execute(sql`select 1 as one`)));
    expect(third.status).toBe(503);
    expect(third.code).toBe('search_busy');
    expect(third.retryAfter).toBe(5);
  } finally {
    // The first two answer.
    await s.finishAll();
  }
  expect(s.started).toEqual(['first', 'second']);
  expect(l.load()).toEqual({ running: 0, waiting: 0 });
});

test('a search that failed frees its slot: the next one runs', async () => {
  const l = lane({ slots: 1, queue: 0 });
  await expect(
    l.run('page', 'space-a', (db) => db.execute(sql`select no_such_column from no_such_table`)),
  ).rejects.toThrow();
  await expect(l.run('page', 'space-a', (db) => db.execute(sql`select 1 as one`))).resolves.toBeTruthy();
});

test('the next search starts only when the database is done with one that ran past its budget', async () => {
  const l = lane({ slots: 1, queue: 1, budgets: { page: 100 } });
  const order: string[] = [];
  const first = l.run('page', 'space-a', async (db) => {
    try {
      return await long(db);
    } finally {
      order.push('first search ended in the database');
    }
  });
  const second = l.run('page', 'space-a', async (db) => {
    order.push('second search started');
    return db.execute(sql`select 1 as one`);
  });
  expect((await rejection(first)).code).toBe('query_timeout');
  await second;
  expect(order).toEqual(['first search ended in the database', 'second search started']);
});

test('an alert-rule preview past its budget answers 400 query_timeout on its query, naming the budget', async () => {
  const error = await rejection(lane({ budgets: { preview: 100 } }).run('preview', 'space-a', long));
  expect(error.status).toBe(400);
  expect(error.code).toBe('query_timeout');
  expect(error.fields).toEqual({
    query:
      'This preview ran for more than 0.1 s and was stopped. Look back fewer hours or make the query more specific.',
  });
});

/**
 * Searches that start in the order the test lets them: each records its start, then waits for the test to open its
 * gate before it reads the database (holding its slot, a connection of the search pool on PostgreSQL).
 */
function gatedSearches(l: SearchLane, kind: SearchKind = 'facets') {
  const started: string[] = [];
  const gates = new Map<string, () => void>();
  const answers: Promise<unknown>[] = [];
  return {
    started,
    start(name: string, spaceId: string) {
      const gate = new Promise<void>((open) => gates.set(name, open));
      answers.push(
        l.run(kind, spaceId, async (db) => {
          started.push(name);
          await gate;
          return db.execute(sql`select 1 as one`);
        }),
      );
    },
    /** Lets the search `name` read and end; resolves when the next search has started in its slot. */
    async finish(name: string) {
      const before = started.length;
      gates.get(name)?.();
      await vi.waitFor(() => expect(started.length).toBeGreaterThan(before), { timeout: 10_000 });
    },
    async finishAll() {
      for (const open of gates.values()) open();
      await Promise.all(answers);
    },
  };
}

test('a space’s searches queue behind each other, not in front of another space’s: B’s search starts before A’s waiting ones', async () => {
  // The lane the server builds: 3 at once on PostgreSQL, 1 on PGlite.
  const l = searchLaneFor(fresh.database);
  const s = gatedSearches(l);
  try {
    // Space A takes every slot…
    let held = 0;
    while (l.load().waiting === 0) s.start(`A${++held}`, 'space-a');
    const slots = held - 1;
    // …the last one of those waits, and so does one more of A's; then two of B's arrive.
    s.start(`A${held + 1}`, 'space-a');
    s.start('B1', 'space-b');
    s.start('B2', 'space-b');
    expect(l.load()).toEqual({ running: slots, waiting: 4 });
    await vi.waitFor(() => expect(s.started).toHaveLength(slots), { timeout: 10_000 });
    const running = Array.from({ length: slots }, (_, i) => `A${i + 1}`);
    expect([...s.started].sort()).toEqual(running);
    // Each finished search frees one slot: it goes to the space served longest ago, so A and B take turns.
    await s.finish('A1');
    for (let i = 0; i < 3; i++) await s.finish(s.started.at(-1) ?? '');
    expect(s.started.slice(slots)).toEqual(['B1', `A${held}`, 'B2', `A${held + 1}`]);
  } finally {
    await s.finishAll();
  }
  expect(l.load()).toEqual({ running: 0, waiting: 0 });
});

test('a space whose queue is full is refused with 503; another space’s search still waits and goes first', async () => {
  const l = lane({ slots: 1, queue: 1 });
  const s = gatedSearches(l, 'page');
  try {
    s.start('A1', 'space-a');
    s.start('A2', 'space-a');
    const refused = await rejection(l.run('page', 'space-a', (db) => db.execute(sql`select 1 as one`)));
    expect(refused.code).toBe('search_busy');
    s.start('B1', 'space-b');
    expect(l.load()).toEqual({ running: 1, waiting: 2 });
    await vi.waitFor(() => expect(s.started).toEqual(['A1']), { timeout: 10_000 });
    await s.finish('A1');
    await s.finish('B1');
    expect(s.started).toEqual(['A1', 'B1', 'A2']);
  } finally {
    await s.finishAll();
  }
});
