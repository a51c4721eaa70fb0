/**
 * A firewall's events (`firewall:<id>`, asked for by the firewall screens and the event log) are read off
 * `events_space_firewall_time_idx` (migrations 0007, 0008: on every monthly partition) in the page's order, not found by scanning the space's events:
 * the planner's choice for the event page's own query, on PGlite or on the PostgreSQL of `npm run test:api:pg`.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { sources } from '../../db/schema/sources.ts';
import { spaces } from '../../db/schema/spaces.ts';
import { freshDatabase } from '../../test/harness.ts';
import { planOf } from '../../test/plans.ts';
import { eventPageSelect } from './search.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let spaceId = '';
const shop = randomUUID();
const api = randomUUID();

beforeAll(async () => {
  fresh = await freshDatabase();
  const { db } = fresh.database;
  const madeAt = new Date('2026-11-23T10:00:00Z');
  const [space] = await db.insert(spaces).values({ name: 'edge', createdAt: madeAt, updatedAt: madeAt }).returning();
  if (!space) throw new Error('no space');
  spaceId = space.id;
  const [source] = await db
    .insert(sources)
    .values({
      spaceId,
      name: 'logs',
      kind: 'json',
      tokenHash: 'a',
      tokenPrefix: 'a',
      createdAt: madeAt,
      updatedAt: madeAt,
    })
    .returning();
  if (!source) throw new Error('no source');
  // Mostly log-source events without a firewall, a busy firewall and a quiet one, spread over days.
  await db.execute(sql`insert into events (space_id, source_id, time, received_at, action, severity, firewall_id)
    select ${spaceId}, ${source.id}, now() - i * interval '1 minute', now(), 'logged', 'info',
      case when i % 10 = 0 then ${api}::uuid when i % 500 = 1 then ${shop}::uuid end
    from generate_series(1, 6000) as i`);
  await db.execute(sql`analyze events`);
});

afterAll(async () => {
  await fresh?.drop();
});

/** The plan of the event page's query, with sequential scans priced out as the index tests of PostgreSQL do. */
const pagePlan = (q: string) =>
  planOf(fresh.database.db, eventPageSelect(fresh.database.db, spaceId, { q, limit: 100 }), { noSeqScan: true });

test('firewall:<id> reads the firewall index in the page order: no sort, no scan of the space', async () => {
  const plan = await pagePlan(`firewall:${shop}`);
  expect([...plan.indexes], plan.text).toContain('events_space_firewall_time_idx');
  expect(plan.nodes, plan.text).not.toContain('Sort');
  expect([...plan.indexes], plan.text).not.toContain('events_space_time_id_idx');

  // …also with more in the query, the firewall being its selective part.
  const narrowed = await pagePlan(`firewall:${shop} action:logged`);
  expect([...narrowed.indexes], narrowed.text).toContain('events_space_firewall_time_idx');

  // And the page answers the firewall's events, newest first.
  const rows = await eventPageSelect(fresh.database.db, spaceId, { q: `firewall:${shop}`, limit: 100 });
  expect(rows.length).toBe(12);
  expect(rows.every((row) => row.firewallId === shop)).toBe(true);
  const times = rows.map((row) => row.time.getTime());
  expect(times).toEqual([...times].sort((a, b) => b - a));
});

test('-firewall:<id> still answers the events without a firewall (the condition is never null)', async () => {
  const rows = await eventPageSelect(fresh.database.db, spaceId, { q: `-firewall:${shop}`, limit: 500 });
  expect(rows.length).toBe(501); // the page asks for one more than its limit
  expect(rows.some((row) => row.firewallId === null)).toBe(true);
  expect(rows.some((row) => row.firewallId === shop)).toBe(false);
});
