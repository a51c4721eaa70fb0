import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { events } from '../db/schema/events.ts';
import { ingestBatches, ingestErrors } from '../db/schema/ingest-batches.ts';
import { sources } from '../db/schema/sources.ts';
import { spaces } from '../db/schema/spaces.ts';
import { freshDatabase } from '../test/harness.ts';
import { deleteExpiredEvents } from './retention.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  fresh = await freshDatabase();
});
afterAll(async () => {
  await fresh.drop();
});

const now = new Date('2026-11-22T00:00:00Z');
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000 + 60_000);

test('deletes events past their retention: the source’s when set, capped by the space’s', async () => {
  const { db } = fresh.database;
  const [week] = await db.insert(spaces).values({ name: 'week', retentionDays: 7 }).returning();
  const [month] = await db.insert(spaces).values({ name: 'month', retentionDays: 30, plan: 'pro' }).returning();
  if (!week || !month) throw new Error('no space');
  const [plain, short, long, monthly] = await db
    .insert(sources)
    .values([
      { spaceId: week.id, name: 'plain', kind: 'json', tokenHash: 'a', tokenPrefix: 'a' },
      { spaceId: week.id, name: 'short', kind: 'json', tokenHash: 'b', tokenPrefix: 'b', retentionDays: 2 },
      // Longer than the space allows: the space's 7 days win.
      { spaceId: week.id, name: 'long', kind: 'json', tokenHash: 'c', tokenPrefix: 'c', retentionDays: 90 },
      { spaceId: month.id, name: 'monthly', kind: 'json', tokenHash: 'd', tokenPrefix: 'd' },
    ])
    .returning();
  if (!plain || !short || !long || !monthly) throw new Error('no source');
  const rows = [
    [plain, 6],
    [plain, 8],
    [short, 1],
    [short, 3],
    [long, 6],
    [long, 8],
    [long, 60],
    [monthly, 8],
    [monthly, 29],
    [monthly, 31],
  ] as const;
  await db.insert(events).values(
    rows.map(([source, age]) => ({
      spaceId: source.spaceId,
      sourceId: source.id,
      time: daysAgo(age),
      action: 'logged' as const,
      severity: 'info' as const,
      message: `${source.name}-${age}`,
      raw: {},
    })),
  );
  await db.insert(ingestBatches).values([
    { sourceId: plain.id, idempotencyKey: 'old', response: {}, createdAt: daysAgo(8) },
    { sourceId: plain.id, idempotencyKey: 'new', response: {}, createdAt: daysAgo(1) },
  ]);
  await db.insert(ingestErrors).values({ sourceId: plain.id, line: 1, message: 'x', createdAt: daysAgo(9) });

  const result = await deleteExpiredEvents(db, now);
  expect(result).toEqual({ bySpace: { [week.id]: 4, [month.id]: 1 }, events: 5, ingestBatches: 1, ingestErrors: 1 });
  const left = await db.select({ message: events.message }).from(events);
  expect(left.map((r) => r.message).sort()).toEqual(['long-6', 'monthly-29', 'monthly-8', 'plain-6', 'short-1']);
  expect(await db.select().from(ingestBatches).where(eq(ingestBatches.idempotencyKey, 'new'))).toHaveLength(1);
  // Nothing more to do on a second run.
  expect((await deleteExpiredEvents(db, now)).events).toBe(0);
});
