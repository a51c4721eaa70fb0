import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { events } from '../../db/schema/events.ts';
import { ingestBatches, ingestErrors } from '../../db/schema/ingest-batches.ts';
import { invitations } from '../../db/schema/invitations.ts';
import { oneTimeTokens } from '../../db/schema/one-time-tokens.ts';
import { rateLimits } from '../../db/schema/rate-limits.ts';
import { sessions } from '../../db/schema/sessions.ts';
import { sources } from '../../db/schema/sources.ts';
import { spaces } from '../../db/schema/spaces.ts';
import { users } from '../../db/schema/users.ts';
import { freshDatabase } from '../../test/harness.ts';
import { jobsOf } from '../../test/jobs.ts';
import { storeEvents } from '../../test/stored-events.ts';
import { deleteExpiredCredentials } from '../accounts/housekeeping.ts';
import { JobRunner } from '../jobs/runner.ts';
import type { LogEntry } from '../shared/logger.ts';
import { listPartitions } from './partitions.ts';
import { deleteExpiredEvents, retentionWorker } from './workers/retention-worker.ts';

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
  const [week] = await db
    .insert(spaces)
    .values({ name: 'week', retentionDays: 7, createdAt: now, updatedAt: now })
    .returning();
  const [month] = await db
    .insert(spaces)
    .values({ name: 'month', retentionDays: 30, plan: 'pro', createdAt: now, updatedAt: now })
    .returning();
  if (!week || !month) throw new Error('no space');
  const made = { createdAt: now, updatedAt: now };
  const [plain, short, long, monthly] = await db
    .insert(sources)
    .values([
      { spaceId: week.id, name: 'plain', kind: 'json', tokenHash: 'a', tokenPrefix: 'a', ...made },
      { spaceId: week.id, name: 'short', kind: 'json', tokenHash: 'b', tokenPrefix: 'b', retentionDays: 2, ...made },
      // Longer than the space allows: the space's 7 days win.
      { spaceId: week.id, name: 'long', kind: 'json', tokenHash: 'c', tokenPrefix: 'c', retentionDays: 90, ...made },
      { spaceId: month.id, name: 'monthly', kind: 'json', tokenHash: 'd', tokenPrefix: 'd', ...made },
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
  await storeEvents(
    db,
    rows.map(([source, age]) => ({
      spaceId: source.spaceId,
      sourceId: source.id,
      time: daysAgo(age),
      receivedAt: daysAgo(age),
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
  expect(result).toMatchObject({
    bySpace: { [week.id]: 4, [month.id]: 1 },
    events: 5,
    ingestBatches: 1,
    ingestErrors: 1,
  });
  expect(result.bySpace).toEqual({ [week.id]: 4, [month.id]: 1 });
  const left = await db.select({ message: events.message }).from(events);
  expect(left.map((r) => r.message).sort()).toEqual(['long-6', 'monthly-29', 'monthly-8', 'plain-6', 'short-1']);
  expect(await db.select().from(ingestBatches).where(eq(ingestBatches.idempotencyKey, 'new'))).toHaveLength(1);
  // Nothing more to do on a second run.
  expect((await deleteExpiredEvents(db, now)).events).toBe(0);
});

test('housekeeping removes expired sessions, links a week past expiry, stale rate-limit counters; keeps the rest', async () => {
  const { db } = fresh.database;
  const hours = (h: number) => new Date(now.getTime() + h * 3_600_000);
  // Everything was made ten days ago, before any of it expired.
  const madeAt = hours(-10 * 24);
  const [user] = await db
    .insert(users)
    .values({ email: 'keep@example.test', name: 'Keep', passwordHash: 'x', createdAt: madeAt, updatedAt: madeAt })
    .returning();
  const [space] = await db.insert(spaces).values({ name: 'links', createdAt: madeAt, updatedAt: madeAt }).returning();
  if (!user || !space) throw new Error('no user');
  await db.insert(sessions).values([
    { userId: user.id, tokenHash: 'session-expired', expiresAt: hours(-1), createdAt: madeAt, lastSeenAt: madeAt },
    { userId: user.id, tokenHash: 'session-alive', expiresAt: hours(1), createdAt: madeAt, lastSeenAt: madeAt },
  ]);
  await db.insert(oneTimeTokens).values([
    // Expired 8 days ago: gone. Expired yesterday: kept, so the link still answers "expired".
    { userId: user.id, kind: 'reset', tokenHash: 'token-old', expiresAt: hours(-8 * 24), createdAt: madeAt },
    { userId: user.id, kind: 'reset', tokenHash: 'token-recent', expiresAt: hours(-24), createdAt: madeAt },
    { userId: user.id, kind: 'activation', tokenHash: 'token-valid', expiresAt: hours(24), createdAt: madeAt },
  ]);
  await db.insert(invitations).values([
    {
      spaceId: space.id,
      email: 'a@example.test',
      role: 'viewer',
      tokenHash: 'inv-old',
      expiresAt: hours(-8 * 24),
      createdAt: madeAt,
    },
    {
      spaceId: space.id,
      email: 'b@example.test',
      role: 'viewer',
      tokenHash: 'inv-accepted',
      expiresAt: hours(-8 * 24),
      acceptedAt: hours(-9 * 24),
      createdAt: madeAt,
    },
    {
      spaceId: space.id,
      email: 'c@example.test',
      role: 'viewer',
      tokenHash: 'inv-pending',
      expiresAt: hours(24),
      createdAt: madeAt,
    },
  ]);
  await db.insert(rateLimits).values([
    { key: 'login:old', count: 5, windowStart: hours(-25) },
    { key: 'login:now', count: 2, windowStart: hours(-0.1) },
  ]);

  expect(await deleteExpiredCredentials(db, now)).toEqual({
    sessions: 1,
    oneTimeTokens: 1,
    invitations: 1,
    rateLimits: 1,
  });
  expect(
    (await db.select({ t: sessions.tokenHash }).from(sessions).where(eq(sessions.userId, user.id))).map((r) => r.t),
  ).toEqual(['session-alive']);
  const tokens = await db
    .select({ t: oneTimeTokens.tokenHash })
    .from(oneTimeTokens)
    .where(eq(oneTimeTokens.userId, user.id));
  expect(tokens.map((r) => r.t).sort()).toEqual(['token-recent', 'token-valid']);
  const invites = await db
    .select({ t: invitations.tokenHash })
    .from(invitations)
    .where(eq(invitations.spaceId, space.id));
  expect(invites.map((r) => r.t).sort()).toEqual(['inv-accepted', 'inv-pending']);
  expect((await db.select({ k: rateLimits.key }).from(rateLimits)).map((r) => r.k)).toEqual(['login:now']);
  // Nothing more to do on a second run.
  expect(await deleteExpiredCredentials(db, now)).toEqual({
    sessions: 0,
    oneTimeTokens: 0,
    invitations: 0,
    rateLimits: 0,
  });
});

test('retention runs as the daily job events.retention: partitions first, then the expired events, once a day', async () => {
  const { db } = fresh.database;
  const [space] = await db
    .insert(spaces)
    .values({ name: 'daily', retentionDays: 7, createdAt: now, updatedAt: now })
    .returning();
  if (!space) throw new Error('no space');
  const [source] = await db
    .insert(sources)
    .values({
      spaceId: space.id,
      name: 'daily',
      kind: 'json',
      tokenHash: 'daily',
      tokenPrefix: 'daily',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!source) throw new Error('no source');
  await storeEvents(
    db,
    [10, 1].map((age) => ({
      spaceId: space.id,
      sourceId: source.id,
      time: daysAgo(age),
      receivedAt: daysAgo(age),
      action: 'logged' as const,
      severity: 'info' as const,
      message: `daily-${age}`,
      raw: {},
    })),
  );
  const logged: LogEntry[] = [];
  const runner = new JobRunner({ db, workers: [retentionWorker], now: () => now, log: (entry) => logged.push(entry) });
  expect(await runner.runOnce()).toBe(1);
  // The day's window is done: another poll the same day runs nothing.
  expect(await runner.runOnce()).toBe(0);
  expect((await jobsOf(db, 'events.retention')).map((j) => [j.uniqueKey, j.state])).toEqual([
    ['events.retention:2026-11-22', 'completed'],
  ]);
  const left = await db.select({ message: events.message }).from(events).where(eq(events.sourceId, source.id));
  expect(left.map((r) => r.message)).toEqual(['daily-1']);
  expect((await listPartitions(db)).map((p) => p.name)).toEqual(
    expect.arrayContaining(['events_p2026_11', 'events_p2026_12', 'event_raw_p2026_12']),
  );
  expect(logged.find((entry) => entry.msg === 'retention')).toMatchObject({ level: 'info', events: 1 });
});
