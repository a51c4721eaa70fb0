import { eq, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { jobs } from '../../db/schema/jobs.ts';
import { spaces } from '../../db/schema/spaces.ts';
import { databaseOfFile, jobsOf } from '../../test/jobs.ts';
import { cancelJob } from './cancel.ts';
import { enqueue, enqueueMany } from './enqueue.ts';
import { defineWorker } from './worker.ts';

const file = databaseOfFile();

/** The clock's time at every call of this file. */
const now = new Date('2026-11-23T10:00:00Z');

const delivery = defineWorker<{ url: string }>({
  kind: 'test.deliver',
  queue: 'webhooks',
  maxAttempts: 8,
  async perform() {},
});

test('a job takes its worker’s kind, queue and attempts, and is due now unless scheduled', async () => {
  const { db } = file;
  const { job, inserted } = await enqueue(db, delivery, { url: 'https://example.test/a' }, { now });
  expect(inserted).toBe(true);
  expect(job).toMatchObject({
    kind: 'test.deliver',
    queue: 'webhooks',
    args: { url: 'https://example.test/a' },
    state: 'available',
    attempt: 0,
    maxAttempts: 8,
    uniqueKey: null,
    spaceId: null,
    errors: [],
    insertedAt: now,
    scheduledAt: now,
  });
  const later = new Date('2027-01-01T00:00:00Z');
  expect((await enqueue(db, delivery, { url: 'b' }, { now, scheduledAt: later, maxAttempts: 2 })).job).toMatchObject({
    scheduledAt: later,
    maxAttempts: 2,
  });
  await db.delete(jobs).where(eq(jobs.kind, 'test.deliver'));
});

test('a unique key enqueues once while its job waits, runs or completed; a discarded job frees it', async () => {
  const { db } = file;
  const first = await enqueue(db, delivery, { url: 'one' }, { now, uniqueKey: 'delivery:42' });
  const again = await enqueue(db, delivery, { url: 'two' }, { now, uniqueKey: 'delivery:42' });
  expect(again).toEqual({ job: first.job, inserted: false });
  for (const state of ['executing', 'retryable', 'completed'] as const) {
    await db.update(jobs).set({ state }).where(eq(jobs.id, first.job.id));
    const duplicate = await enqueue(db, delivery, { url: 'three' }, { now, uniqueKey: 'delivery:42' });
    expect(duplicate.inserted).toBe(false);
    expect(duplicate.job.id).toBe(first.job.id);
  }
  expect(await jobsOf(db, 'test.deliver')).toHaveLength(1);
  await db.update(jobs).set({ state: 'discarded' }).where(eq(jobs.id, first.job.id));
  const retried = await enqueue(db, delivery, { url: 'four' }, { now, uniqueKey: 'delivery:42' });
  expect(retried.inserted).toBe(true);
  expect(retried.job.id).not.toBe(first.job.id);
  await db.delete(jobs).where(eq(jobs.kind, 'test.deliver'));
});

test('enqueued in the caller’s transaction: the job exists only if the change that wants it commits', async () => {
  const { db } = file;
  const [space] = await db.insert(spaces).values({ name: 'webhooks', createdAt: now, updatedAt: now }).returning();
  if (!space) throw new Error('no space');
  await expect(
    db.transaction(async (tx) => {
      await tx.update(spaces).set({ name: 'renamed' }).where(eq(spaces.id, space.id));
      await enqueue(tx, delivery, { url: 'rolled back' }, { now, spaceId: space.id });
      throw new Error('the change failed');
    }),
  ).rejects.toThrow('the change failed');
  expect(await jobsOf(db, 'test.deliver')).toEqual([]);
  await db.transaction(async (tx) => {
    await tx.update(spaces).set({ name: 'renamed' }).where(eq(spaces.id, space.id));
    await enqueue(tx, delivery, { url: 'committed' }, { now, spaceId: space.id, uniqueKey: 'delivery:committed' });
  });
  expect((await jobsOf(db, 'test.deliver')).map((j) => [j.args, j.spaceId])).toEqual([
    [{ url: 'committed' }, space.id],
  ]);
  // A space's jobs go with it.
  await db.delete(spaces).where(eq(spaces.id, space.id));
  expect(await jobsOf(db, 'test.deliver')).toEqual([]);
});

test('a job that has not started can be cancelled, which frees its key; a running or finished one cannot', async () => {
  const { db } = file;
  const { job } = await enqueue(db, delivery, { url: 'withdrawn' }, { now, uniqueKey: 'delivery:withdrawn' });
  expect(await cancelJob(db, job.id, now)).toBe(true);
  expect((await jobsOf(db, 'test.deliver'))[0]).toMatchObject({ state: 'cancelled', cancelledAt: now });
  expect(await cancelJob(db, job.id, now)).toBe(false);
  const again = await enqueue(db, delivery, { url: 'again' }, { now, uniqueKey: 'delivery:withdrawn' });
  expect(again.inserted).toBe(true);
  for (const state of ['executing', 'completed', 'discarded'] as const) {
    await db.update(jobs).set({ state }).where(eq(jobs.id, again.job.id));
    expect(await cancelJob(db, again.job.id, now)).toBe(false);
  }
  await db.delete(jobs).where(eq(jobs.kind, 'test.deliver'));
});

test('the claim query uses the partial claim index', async () => {
  const { db } = file;
  const plan = await db.execute(sql`explain select id from jobs
    where queue = 'webhooks' and state in ('available', 'retryable') and scheduled_at <= now()
    order by scheduled_at, id limit 5 for update skip locked`);
  expect(JSON.stringify(plan)).toContain('jobs_claim_idx');
});

test('many jobs in one statement: each with its options, a key already held skipped', async () => {
  const { db } = file;
  await enqueue(db, delivery, { url: 'held' }, { now, uniqueKey: 'many:held' });
  const at = new Date('2027-02-01T00:00:00Z');
  const inserted = await enqueueMany(db, delivery, [
    { args: { url: 'one' }, options: { now, uniqueKey: 'many:one', scheduledAt: at } },
    { args: { url: 'again' }, options: { now, uniqueKey: 'many:held' } },
    { args: { url: 'two' }, options: { now } },
  ]);
  expect(inserted).toBe(2);
  const rows = (await jobsOf(db, 'test.deliver')).map((j) => [
    j.args,
    j.uniqueKey,
    j.scheduledAt.getTime() === at.getTime(),
  ]);
  expect(rows).toEqual([
    [{ url: 'held' }, 'many:held', false],
    [{ url: 'one' }, 'many:one', true],
    [{ url: 'two' }, null, false],
  ]);
  await db.delete(jobs).where(eq(jobs.kind, 'test.deliver'));
});
