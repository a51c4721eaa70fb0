import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, count, eq, sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  integer,
  interval,
  json,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type Database, openDatabase, rowsOf } from './database.ts';
import { migrate } from './migrate.ts';
import { users } from './schema/users.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

// A table of every kind of value Drizzle reads back, created by the test (so it depends on no migration).
const values = pgTable('thread_values', {
  id: uuid('id').primaryKey(),
  n: integer('n'),
  big: bigint('big', { mode: 'number' }),
  bigExact: bigint('big_exact', { mode: 'bigint' }),
  decimal: numeric('decimal'),
  flag: boolean('flag'),
  label: text('label').unique(),
  at: timestamp('at', { withTimezone: true }),
  local: timestamp('local'),
  atText: timestamp('at_text', { withTimezone: true, mode: 'string' }),
  day: date('day'),
  dayDate: date('day_date', { mode: 'date' }),
  span: interval('span'),
  doc: jsonb('doc'),
  plain: json('plain'),
  ints: integer('ints').array(),
  texts: text('texts').array(),
});
const createValues = sql`create table thread_values (
  id uuid primary key, n integer, big bigint, big_exact bigint, decimal numeric, flag boolean, label text unique,
  at timestamptz, local timestamp, at_text timestamptz, day date, day_date date, span interval, doc jsonb,
  plain json, ints integer[], texts text[])`;

const rows: (typeof values.$inferInsert)[] = [
  {
    id: '7b0c6c55-7a7e-4f59-9d9e-2c8c2b7b0c11',
    n: -2_147_483_648,
    big: 9_007_199_254_740_991,
    bigExact: 9_223_372_036_854_775_807n,
    decimal: '12345678901234567890.123456789',
    flag: true,
    label: 'full "quoted", {braced} \u00e9\ud83d\ude00',
    at: new Date('2026-11-23T16:00:00.123Z'),
    local: new Date('1970-01-01T00:00:00.001Z'),
    atText: '2026-11-23 16:00:00.123456+00',
    day: '2026-02-28',
    dayDate: new Date('2000-01-01T00:00:00Z'),
    span: '1 day 02:03:04.5',
    doc: { nested: { list: [1, 'two', null, true], empty: {} }, unicode: '\u00fc\ud83d\ude00', n: 1.5 },
    plain: [{ a: 1 }, 'b', null],
    ints: [0, -1, 2_147_483_647],
    texts: ['a,b', '"q"', 'back\\slash', '', 'NULL', '{}'],
  },
  { id: '0f6a1e2d-3c4b-4a59-8e7f-6a5b4c3d2e1f' },
  {
    id: 'ffffffff-ffff-4fff-bfff-ffffffffffff',
    n: 0,
    big: 0,
    bigExact: -1n,
    decimal: '0',
    flag: false,
    label: '',
    at: new Date('2199-12-31T23:59:59.999Z'),
    local: new Date('2026-06-30T12:00:00Z'),
    atText: '1970-01-01 00:00:00+00',
    day: '1970-01-01',
    dayDate: new Date('2026-11-23T00:00:00Z'),
    span: '00:00:00',
    doc: 'just a string',
    plain: {},
    ints: [],
    texts: [],
  },
];

let thread: Database;
let local: Database;

beforeAll(async () => {
  [thread, local] = await Promise.all([
    openDatabase({ dataDir: 'memory://', thread: true }),
    openDatabase({ dataDir: 'memory://' }),
  ]);
  for (const database of [thread, local]) {
    await migrate(database);
    await database.db.execute(createValues);
  }
});
afterAll(async () => {
  await Promise.all([thread?.close(), local?.close()]);
});

/** The error a driver threw, beneath Drizzle's wrapper: where PostgreSQL's `code` is. */
function pgError(error: unknown): { code?: string; message: string } {
  const cause = (error as { cause?: unknown }).cause;
  return (cause ?? error) as { code?: string; message: string };
}

/** Settles with the rejection of a promise that must reject. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('Drizzle over the worker reads back what in-process PGlite reads back', () => {
  test('every kind of value, nulls included, on the same rows', async () => {
    expect(thread.pgliteThread).toBeDefined();
    expect(local.pglite).toBeDefined();
    const read = async ({ db }: Database) => {
      await db.insert(values).values(rows);
      return db.select().from(values).orderBy(asc(values.id));
    };
    const [fromThread, fromLocal] = await Promise.all([read(thread), read(local)]);
    expect(fromThread).toEqual(fromLocal);
    expect(fromThread).toHaveLength(rows.length);
    const full = fromThread.find((row) => row.id === rows[0]?.id);
    expect(full?.at).toBeInstanceOf(Date);
    expect(full?.at).toEqual(rows[0]?.at);
    expect(full?.local).toEqual(rows[0]?.local);
    expect(full?.dayDate).toEqual(rows[0]?.dayDate);
    expect(full?.day).toBe('2026-02-28');
    expect(full?.bigExact).toBe(9_223_372_036_854_775_807n);
    expect(full?.doc).toEqual(rows[0]?.doc);
    expect(full?.plain).toEqual(rows[0]?.plain);
    expect(full?.ints).toEqual(rows[0]?.ints);
    expect(full?.texts).toEqual(rows[0]?.texts);
    expect(full?.label).toBe(rows[0]?.label);
    const empty = fromThread.find((row) => row.id === rows[1]?.id);
    expect(Object.values(empty ?? {}).filter((value) => value !== null)).toEqual([rows[1]?.id]);
  });

  test('a row of the migrated schema, with its defaults, and raw execute', async () => {
    const at = new Date('2026-11-23T16:00:00Z');
    const read = async ({ db }: Database) => {
      const [row] = await db
        .insert(users)
        .values({ email: 'thread@example.com', name: 'Thread', passwordHash: 'x', createdAt: at, updatedAt: at })
        .returning();
      const raw = rowsOf<{ n: number; now: unknown }>(
        await db.execute(sql`select count(*)::int as n, now() as now from ${users}`),
      );
      return { row, raw };
    };
    const [fromThread, fromLocal] = await Promise.all([read(thread), read(local)]);
    // Ids and times differ between the two databases; every other column must read back the same.
    const {
      id: _a,
      createdAt: threadCreated,
      updatedAt: _c,
      ...threadRest
    } = fromThread.row as Record<string, unknown>;
    const { id: _b, createdAt: localCreated, updatedAt: _d, ...localRest } = fromLocal.row as Record<string, unknown>;
    expect(threadRest).toEqual(localRest);
    expect(threadCreated).toBeInstanceOf(Date);
    expect(localCreated).toBeInstanceOf(Date);
    expect(fromThread.raw[0]?.n).toBe(1);
    expect(typeof fromThread.raw[0]?.now).toBe(typeof fromLocal.raw[0]?.now);
  });
});

describe('transactions on the worker', () => {
  const labelled = async (prefix: string) =>
    (await thread.db.select({ label: values.label }).from(values).orderBy(asc(values.label)))
      .map((row) => row.label ?? '')
      .filter((label) => label.startsWith(prefix));
  const row = (label: string) => ({ id: crypto.randomUUID(), label });

  test('one that resolves commits, and answers its value', async () => {
    const answer = await thread.db.transaction(async (tx) => {
      await tx.insert(values).values([row('commit-a'), row('commit-b')]);
      return (await tx.select({ n: count() }).from(values).where(sql`${values.label} like 'commit-%'`))[0]?.n;
    });
    expect(answer).toBe(2);
    expect(await labelled('commit-')).toEqual(['commit-a', 'commit-b']);
  });

  test('one that throws rolls back and rethrows the same error', async () => {
    const boom = new Error('boom');
    const error = await rejection(
      thread.db.transaction(async (tx) => {
        await tx.insert(values).values(row('rollback-a'));
        expect(await tx.select({ n: count() }).from(values).where(eq(values.label, 'rollback-a'))).toEqual([{ n: 1 }]);
        throw boom;
      }),
    );
    expect(error).toBe(boom);
    expect(await labelled('rollback-')).toEqual([]);
  });

  test('tx.rollback() rolls back too', async () => {
    await expect(
      thread.db.transaction(async (tx) => {
        await tx.insert(values).values(row('explicit-a'));
        tx.rollback();
      }),
    ).rejects.toThrow(/rollback/i);
    expect(await labelled('explicit-')).toEqual([]);
  });

  test('a nested transaction (savepoint) rolled back keeps the outer one’s work', async () => {
    await thread.db.transaction(async (tx) => {
      await tx.insert(values).values(row('nested-a'));
      const inner = await rejection(
        tx.transaction(async (nested) => {
          await nested.insert(values).values(row('nested-b'));
          throw new Error('inner');
        }),
      );
      expect((inner as Error).message).toBe('inner');
      await tx.transaction(async (nested) => {
        await nested.insert(values).values(row('nested-c'));
      });
      await tx.insert(values).values(row('nested-d'));
    });
    expect(await labelled('nested-')).toEqual(['nested-a', 'nested-c', 'nested-d']);
  });

  test('a unique violation rejects with PostgreSQL’s code 23505, in and out of a transaction', async () => {
    await thread.db.insert(values).values(row('unique-a'));
    const direct = pgError(await rejection(thread.db.insert(values).values(row('unique-a'))));
    expect(direct.code).toBe('23505');
    expect(direct.message).toMatch(/unique/);
    expect(direct).toMatchObject({ constraint: 'thread_values_label_key' });

    const inTx = await rejection(
      thread.db.transaction(async (tx) => {
        await tx.insert(values).values(row('unique-b'));
        await tx.insert(values).values(row('unique-a'));
      }),
    );
    expect(pgError(inTx).code).toBe('23505');
    expect(await labelled('unique-')).toEqual(['unique-a']);

    // The same error on in-process PGlite: callers can test `.cause.code` whichever runs.
    await local.db.insert(values).values(row('unique-a'));
    expect(pgError(await rejection(local.db.insert(values).values(row('unique-a')))).code).toBe('23505');
    // The database is still usable after the failures.
    expect(await labelled('unique-')).toEqual(['unique-a']);
  });

  test('a commit that fails (a deferred unique constraint) rejects with 23505 and keeps nothing', async () => {
    await thread.db.execute(
      sql`create table thread_deferred (x integer, constraint thread_deferred_x unique (x) deferrable initially deferred)`,
    );
    const error = await rejection(
      thread.db.transaction(async (tx) => {
        // Accepted here: the constraint is checked only at commit.
        await tx.execute(sql`insert into thread_deferred values (1), (1)`);
      }),
    );
    expect(pgError(error).code).toBe('23505');
    expect(rowsOf(await thread.db.execute(sql`select * from thread_deferred`))).toEqual([]);
  });

  test('a query sent while a transaction is open runs after the transaction ends', async () => {
    const order: string[] = [];
    let outside: Promise<number> | undefined;
    const error = await rejection(
      thread.db.transaction(async (tx) => {
        await tx.insert(values).values(row('order-a'));
        order.push('tx insert');
        // Sent on the database, not the transaction, while it is open: it waits for the transaction.
        outside = thread.db
          .select({ n: count() })
          .from(values)
          .where(eq(values.label, 'order-a'))
          .then(([result]) => {
            order.push('outside');
            return result?.n ?? -1;
          });
        for (let i = 0; i < 5; i++) {
          await tx.select({ n: count() }).from(values);
          await new Promise((resolve) => setImmediate(resolve));
        }
        order.push('tx queries');
        throw new Error('roll back');
      }),
    );
    order.push('rolled back');
    expect((error as Error).message).toBe('roll back');
    // Run inside the transaction it would have seen the uncommitted row; after the rollback it sees none.
    expect(await outside).toBe(0);
    expect(order.slice(0, 2)).toEqual(['tx insert', 'tx queries']);
    expect(order).toContain('outside');
    expect(order).toContain('rolled back');
  });

  test('the outside query sees a transaction’s committed work, and answers after its queries', async () => {
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await thread.db.transaction(async (tx) => {
      await tx.insert(values).values(row('after-a'));
      outside = thread.db
        .select({ n: count() })
        .from(values)
        .where(eq(values.label, 'after-b'))
        .then(([result]) => order.push(`outside saw ${result?.n}`));
      await tx.insert(values).values(row('after-b'));
      order.push('tx insert b');
      await tx.select().from(values);
      order.push('tx select');
    });
    await outside;
    expect(order).toEqual(['tx insert b', 'tx select', 'outside saw 1']);
  });
});

describe('the worker keeps the main thread free', () => {
  test('callbacks scheduled after a long query was sent run before it answers', async () => {
    const order: string[] = [];
    let turns = 0;
    let done = false;
    const query = thread.db
      .execute(sql`select count(*)::int as n from generate_series(1, 3000000) g where g::text like '%9%'`)
      .then((result) => {
        done = true;
        order.push('query');
        return rowsOf<{ n: number }>(result)[0]?.n;
      });
    setImmediate(() => order.push('setImmediate'));
    setTimeout(() => order.push('setTimeout 0'), 0);
    // Event-loop turns the main thread takes while the worker counts.
    const spin = () => {
      if (done) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    // Without a 9, 1..3 000 000 holds 3 * 9^6 numbers (seven digits, the first 0-2, each other 0-8; 0 out, 3 000 000 in).
    expect(await query).toBe(3_000_000 - 3 * 9 ** 6);
    expect(order.indexOf('query')).toBe(order.length - 1);
    expect(order.slice(0, -1).sort()).toEqual(['setImmediate', 'setTimeout 0']);
    expect(turns).toBeGreaterThan(2);
  });
});

describe('lifecycle', () => {
  test('on disk: data survives close() and a reopen on a thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-thread-'));
    try {
      const first = await openDatabase({ dataDir: dir, thread: true });
      await migrate(first);
      const at = new Date('2026-11-23T16:00:00Z');
      await first.db
        .insert(users)
        .values({ email: 'disk@example.com', name: 'Disk', passwordHash: 'x', createdAt: at, updatedAt: at });
      await first.db.execute(createValues);
      await first.db.insert(values).values(rows);
      const before = await first.db.select().from(values).orderBy(asc(values.id));
      await first.close();

      const second = await openDatabase({ dataDir: dir, thread: true });
      try {
        await migrate(second);
        expect(await second.db.select({ email: users.email }).from(users)).toEqual([{ email: 'disk@example.com' }]);
        expect(await second.db.select().from(values).orderBy(asc(values.id))).toEqual(before);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('after close(), a query rejects with a clear error instead of hanging', async () => {
    const database = await openDatabase({ dataDir: 'memory://', thread: true });
    await database.db.execute(sql`select 1`);
    await database.close();
    const error = await rejection(database.db.execute(sql`select 1`));
    expect(pgError(error).message).toMatch(/database worker stopped|closed/i);
    // Closing twice is harmless.
    await database.close();
  });
});
