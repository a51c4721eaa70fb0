import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createApp } from './app.ts';
import type { LogEntry } from './services/shared/logger.ts';
import { BASE, createTestApi, ORIGIN, type TestApi } from './test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
const lines: LogEntry[] = [];
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  t = await createTestApi();
  app = createApp({
    db: t.db,
    log: (entry) => lines.push(entry),
    config: { publicUrl: BASE, allowedOrigins: [ORIGIN], production: false },
  });
  // A database that refuses every new account: the insert fails inside PostgreSQL, with the row in its detail.
  await t.db.execute(sql`alter table users add constraint no_new_users check (false) not valid`);
});
afterAll(async () => {
  await t.close();
});

test("an unexpected database error is logged with PostgreSQL's code and message, never the row or the values", async () => {
  const email = 'leaky-address@example.com';
  const res = await app.request(`${BASE}/api/auth/register`, {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Secret Name', email, password: 'a very secret password 1' }),
  });
  expect(res.status).toBe(500);
  expect((await res.json()).error.code).toBe('internal');
  const [logged, ...more] = lines.filter((line) => line.msg === 'unhandled error');
  expect(more).toEqual([]);
  expect(logged).toMatchObject({
    level: 'error',
    error: 'Failed query',
    database: {
      code: '23514',
      message: 'new row for relation "users" violates check constraint "no_new_users"',
      table: 'users',
      constraint: 'no_new_users',
    },
  });
  expect(logged?.stack).toMatch(/^\s+at /);
  const text = JSON.stringify(logged);
  for (const secret of [email, 'Secret Name', 'a very secret password', '$argon2id', 'Failing row', 'params']) {
    expect(text).not.toContain(secret);
  }
});

test('an error that is not the database keeps its message and stack', async () => {
  lines.length = 0;
  const failing = createApp({ db: t.db, log: (entry) => lines.push(entry) });
  failing.get('/boom', () => {
    throw new TypeError('cannot read the thing');
  });
  expect((await failing.request(`${BASE}/api/boom`)).status).toBe(500);
  const logged = lines.find((line) => line.msg === 'unhandled error');
  expect(logged).toMatchObject({ error: 'TypeError: cannot read the thing' });
  expect(logged).not.toHaveProperty('database');
  expect(logged?.stack).toMatch(/^\s+at /);
});
