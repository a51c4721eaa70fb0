/**
 * Upgrading a database that holds events in the earlier store (one table, the raw record in each row) to the events
 * store of migration 0008 loses nothing: every event keeps its fields and its raw record, the rollups count them,
 * and the first partition run moves them out of the default partition into their months. On PGlite here and on
 * PostgreSQL under `npm run test:api:pg`.
 */
import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { ensurePartitions, listPartitions } from '../services/events/partitions.ts';
import { freshDatabase } from '../test/harness.ts';
import { rowsOf } from './database.ts';
import { migrate } from './migrate.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const folder = fileURLToPath(new URL('./migrations', import.meta.url));
const DAY = 86_400_000;
const now = Date.now();
const times = [now - 70 * DAY, now - 40 * DAY, now - 3 * DAY, now - 60_000];

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let before: string;

beforeAll(async () => {
  fresh = await freshDatabase({ migrated: false });
  // The migrations up to 0007 only: the earlier store.
  before = mkdtempSync(join(tmpdir(), 'sg-migrations-'));
  cpSync(folder, before, { recursive: true });
  const journalPath = join(before, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((entry) => entry.tag < '0008');
  writeFileSync(journalPath, JSON.stringify(journal));
  await migrate(fresh.database, { migrationsFolder: before });
});

afterAll(async () => {
  rmSync(before, { recursive: true, force: true });
  await fresh?.drop();
});

test('events of the earlier store keep their fields and raw records, are counted by the rollups and move into their months', async () => {
  const { db } = fresh.database;
  const spaceId = randomUUID();
  const sourceId = randomUUID();
  await db.execute(sql`insert into spaces (id, name) values (${spaceId}::uuid, 'Old')`);
  await db.execute(sql`insert into sources (id, space_id, name, kind, token_hash, token_prefix)
    values (${sourceId}::uuid, ${spaceId}::uuid, 'old', 'json', ${randomUUID()}, 'sgi_')`);
  for (const [i, time] of times.entries()) {
    await db.execute(sql`insert into events (space_id, source_id, time, dedup_key, ip, action, severity, tags, raw)
      values (${spaceId}::uuid, ${sourceId}::uuid, ${new Date(time).toISOString()}::timestamptz, ${`k${i}`},
        ${i % 2 ? '60.16.4.1' : 'not-an-address'}, ${i % 2 ? 'blocked' : 'allowed'}, 'high', array['attack-sqli'],
        ${JSON.stringify({ record: i })}::jsonb)`);
  }
  const old = rowsOf<{ id: string; dedup_key: string }>(
    await db.execute(sql`select id, dedup_key from events order by time`),
  );

  await migrate(fresh.database);

  const events = rowsOf<{ id: string; dedup_key: string; ip_net: string | null; raw: { record: number } }>(
    await db.execute(sql`select e.id, e.dedup_key, e.ip_net::text as ip_net, r.raw from events e
      join event_raw r on r.space_id = e.space_id and r.id = e.id and r.time = e.time order by e.time`),
  );
  expect(events.map((e) => [e.id, e.dedup_key])).toEqual(old.map((e) => [e.id, e.dedup_key]));
  expect(events.map((e) => e.raw.record)).toEqual([0, 1, 2, 3]);
  // The generated address: set where the text is an address, null where it is not.
  expect(events.map((e) => e.ip_net)).toEqual([null, '60.16.4.1/32', null, '60.16.4.1/32']);
  const counted = rowsOf<{ n: number | string }>(
    await db.execute(sql`select coalesce(sum(n), 0) as n from event_rollup_day where space_id = ${spaceId}::uuid
      and facet = 'severity'`),
  );
  expect(Number(counted[0]?.n)).toBe(4);

  // Everything sits in the default partition until the partition run makes the months and moves the rows.
  const created = await ensurePartitions(db, new Date(now));
  expect(created.length).toBeGreaterThanOrEqual(6);
  const left = rowsOf<{ n: number | string }>(await db.execute(sql`select count(*) as n from events_default`));
  expect(Number(left[0]?.n)).toBe(0);
  const rawLeft = rowsOf<{ n: number | string }>(await db.execute(sql`select count(*) as n from event_raw_default`));
  expect(Number(rawLeft[0]?.n)).toBe(0);
  const months = new Set(times.map((time) => new Date(time).toISOString().slice(0, 7).replace('-', '_')));
  const names = (await listPartitions(db)).map((p) => p.name);
  for (const month of months) {
    expect(names).toContain(`events_p${month}`);
    expect(names).toContain(`event_raw_p${month}`);
  }
  const after = rowsOf<{ n: number | string }>(await db.execute(sql`select count(*) as n from events`));
  expect(Number(after[0]?.n)).toBe(4);
});
