/**
 * PostgreSQL only (`*.pg.test.ts` runs in `npm run test:api:pg`, not on PGlite, which is one process with no
 * NOTIFY between processes): a version saved by another API process wakes a connector's held long poll.
 */
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { spaces } from '../db/schema/spaces.ts';
import { waitingOn } from '../services/firewalls/connector/version-signal.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let t: TestApi;
let owner: string;
let spaceId: string;

beforeAll(async () => {
  t = await createTestApi();
  expect(t.database.driver).toBe('postgres');
  owner = (await t.signUp('owner@example.com', 'Olive')).cookie;
  spaceId = (await t.read(t.api(owner).spaces.$post({ json: { name: 'Edge' } }))).json.id;
  await t.db.update(spaces).set({ plan: 'business' }).where(eq(spaces.id, spaceId));
});
afterAll(async () => {
  await t.close();
});

test('a version saved by another API process (PostgreSQL NOTIFY) wakes the long poll', async () => {
  const created = await t.read(
    t.api(owner).spaces[':spaceId'].firewalls.$post({
      param: { spaceId },
      json: { name: 'elsewhere', hostnames: ['shop.example.com'], upstream: 'http://127.0.0.1:3000', mode: 'detect' },
    }),
  );
  expect(created.status, created.text).toBe(201);
  const fw = { id: created.json.id as string, token: created.json.token as string };
  const config = (headers: Record<string, string> = {}, query = '') =>
    t.raw('GET', `/api/connector/config${query}`, { token: fw.token, headers });
  const hash = (await config()).json.hash;
  const held = config({ 'if-none-match': hash }, '?wait=60');
  await vi.waitFor(() => expect(waitingOn(fw.id)).toBe(1), { timeout: 10_000 });
  // Another process saves through its own connection: nothing in this process is told directly.
  const other = new pg.Client({ connectionString: t.database.pool?.options.connectionString });
  await other.connect();
  await other.query('begin');
  await other.query(
    `insert into firewall_versions (firewall_id, version, settings, files, hash, created_at)
     select id, version + 1, settings, '{"modsecurity.conf": "# elsewhere"}', 'from-elsewhere', $2 from firewalls where id = $1`,
    [fw.id, t.deps.now().toISOString()],
  );
  await other.query('update firewalls set version = version + 1 where id = $1', [fw.id]);
  await other.query(`select pg_notify('sg_firewall_version', $1)`, [fw.id]);
  await other.query('commit');
  await other.end();
  const res = await held;
  expect(res.status).toBe(200);
  expect(res.json).toMatchObject({ version: 2, hash: 'from-elsewhere' });
});
