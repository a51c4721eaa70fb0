import { eq } from 'drizzle-orm';
import { afterEach, expect, test, vi } from 'vitest';
import { Delivery } from '../../../contract/notifications.ts';
import { buildDeps } from '../../build-deps.ts';
import { type AlertRuleRow, alertRules, alerts, type StoredChannel } from '../../db/schema/alerts.ts';
import { jobs } from '../../db/schema/jobs.ts';
import { alertDeliveries } from '../../db/schema/notifications.ts';
import { outbox } from '../../db/schema/outbox.ts';
import { spaces } from '../../db/schema/spaces.ts';
import { databaseOfFile, jobsOf, testClock } from '../../test/jobs.ts';
import { deadPort, startReceiver } from '../../test/webhook-receiver.ts';
import { JobRunner } from '../jobs/runner.ts';
import { silentLogger } from '../shared/logger.ts';
import { deliveriesOfAlert } from './deliveries.ts';
import { notifyAlert } from './notify.ts';
import { verifyWebhookSignature } from './sign.ts';
import { deliverWorker } from './workers/deliver-worker.ts';

const file = databaseOfFile();
const publicUrl = 'https://console.example.com';
const secret = 'whsec-a-long-enough-secret';
const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/** The test's clock, which notify and delivery read for every time (none from the machine or the database). */
function startClock() {
  return testClock('2026-11-24T10:00:00Z');
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (stops.length) await stops.pop()?.();
  // Each test starts with no delivery jobs left by another.
  await file.db.delete(jobs).where(eq(jobs.kind, 'alerts.deliver'));
});

async function receiver(answers: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(answers);
  stops.push(r.stop);
  return r;
}

/** A space with a rule notifying `channels` and an open alert of it, made at `now`; the alert notified as opened. */
async function notified(
  now: Date,
  channels: StoredChannel[],
  type: 'alert.opened' | 'alert.resolved' = 'alert.opened',
) {
  const { db } = file;
  const [space] = await db.insert(spaces).values({ name: 'Shop', createdAt: now, updatedAt: now }).returning();
  if (!space) throw new Error('no space');
  const [rule] = await db
    .insert(alertRules)
    .values({
      spaceId: space.id,
      name: 'SQL injection',
      severity: 'high',
      kind: 'threshold',
      query: 'tag:attack-sqli',
      threshold: 5,
      windowMinutes: 5,
      groupBy: ['ip'],
      channels,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!rule) throw new Error('no rule');
  const at = new Date('2026-11-23T09:58:00Z');
  const [alert] = await db
    .insert(alerts)
    .values({
      spaceId: space.id,
      ruleId: rule.id,
      ruleName: rule.name,
      kind: 'threshold',
      severity: 'high',
      title: 'SQL injection from 198.51.100.7',
      groupKey: 'ip=198.51.100.7',
      groupValues: { ip: '198.51.100.7' },
      count: 6,
      firstSeen: at,
      lastSeen: at,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!alert) throw new Error('no alert');
  const queued = await db.transaction((tx) => notifyAlert(tx, { alert, rule, space, type, publicUrl, now }));
  const deliveries = await db.select().from(alertDeliveries).where(eq(alertDeliveries.alertId, alert.id));
  return { space, rule, alert, queued, deliveries };
}

function runnerAt(
  clock: ReturnType<typeof testClock>,
  config: { production?: boolean; webhookAllowedHosts?: string[] } = {},
) {
  const { db } = file;
  const deps = buildDeps({
    db,
    now: clock.now,
    log: silentLogger,
    config: { production: false, publicUrl, smtpUrl: undefined, webhookAllowedHosts: [], ...config },
  });
  return new JobRunner({ db, workers: [deliverWorker], now: clock.now, deps });
}

async function deliveryOf(id: string) {
  const [row] = await file.db.select().from(alertDeliveries).where(eq(alertDeliveries.id, id));
  return row;
}

/** Moves the clock to the job's next try. */
async function toNextTry(clock: ReturnType<typeof testClock>, deliveryId: string) {
  const job = (await jobsOf(file.db, 'alerts.deliver')).find((j) => j.uniqueKey === `alerts.deliver:${deliveryId}`);
  const wait = (job?.scheduledAt.getTime() ?? 0) - clock.now().getTime();
  clock.advance(Math.max(0, wait));
  return wait;
}

test('a webhook gets the signed body; after a 500 the retry carries the same delivery id and body, and the log shows both', async () => {
  const clock = startClock();
  const hook = await receiver([500, 200]);
  const { space, rule, alert, queued, deliveries } = await notified(clock.now(), [
    { kind: 'webhook', url: hook.url, secret },
  ]);
  expect(queued).toBe(1);
  const [delivery] = deliveries;
  if (!delivery) throw new Error('no delivery');
  const runner = runnerAt(clock);

  expect(await runner.runOnce()).toBe(1);
  expect(hook.received).toHaveLength(1);
  expect(await deliveryOf(delivery.id)).toMatchObject({ status: 'pending', attemptCount: 1 });
  // Retried 5 s later (plus up to 10 % of jitter), not before.
  expect(await runner.runOnce()).toBe(0);
  const wait = await toNextTry(clock, delivery.id);
  expect(wait).toBeGreaterThanOrEqual(5 * SECOND);
  expect(wait).toBeLessThanOrEqual(5.5 * SECOND);
  expect(await runner.runOnce()).toBe(1);
  expect(hook.received).toHaveLength(2);

  const [first, second] = hook.received;
  for (const request of [first, second]) {
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/hook');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['user-agent']).toBe('Spaceguard-Webhook/1');
    expect(request?.headers['x-spaceguard-delivery']).toBe(delivery.id);
  }
  // The body the issue describes, the same bytes both times.
  expect(second?.body).toBe(first?.body);
  expect(JSON.parse(second?.body ?? '')).toEqual({
    id: delivery.id,
    type: 'alert.opened',
    alert: {
      id: alert.id,
      title: 'SQL injection from 198.51.100.7',
      severity: 'high',
      status: 'open',
      count: 6,
      ruleId: rule.id,
      groupKey: 'ip=198.51.100.7',
      url: `${publicUrl}/console/alert/${space.id}/${alert.id}`,
    },
    space: { id: space.id, name: 'Shop' },
  });
  // Each try is signed at its own time, and verifies with the channel's secret.
  const tries = [first, second].map((r) => Number(r?.headers['x-spaceguard-timestamp']));
  expect(tries[1] ?? 0).toBeGreaterThan(tries[0] ?? 0);
  for (const r of [first, second]) {
    const ts = String(r?.headers['x-spaceguard-timestamp']);
    const signature = String(r?.headers['x-spaceguard-signature']);
    expect(verifyWebhookSignature(secret, ts, r?.body ?? '', signature, { now: clock.now() })).toBe(true);
    expect(verifyWebhookSignature('whsec-some-other-secret', ts, r?.body ?? '', signature, { now: clock.now() })).toBe(
      false,
    );
  }

  const done = await deliveryOf(delivery.id);
  expect(done).toMatchObject({ status: 'delivered', attemptCount: 2, deliveredAt: clock.now() });
  expect(done?.attempts.map(({ attempt, statusCode, error }) => ({ attempt, statusCode, error }))).toEqual([
    { attempt: 1, statusCode: 500, error: 'The receiver answered 500' },
    { attempt: 2, statusCode: 200, error: null },
  ]);
  expect(done?.attempts.every((a) => a.durationMs >= 0)).toBe(true);
  expect(
    (await jobsOf(file.db, 'alerts.deliver')).find((j) => j.uniqueKey === `alerts.deliver:${delivery.id}`)?.state,
  ).toBe('completed');
  // Nothing more is sent.
  clock.advance(4 * 3_600 * SECOND);
  expect(await runner.runOnce()).toBe(0);
  expect(hook.received).toHaveLength(2);
});

test('a dead receiver is retried on the schedule, then the delivery is marked failed after 8 attempts', async () => {
  const clock = startClock();
  const url = `http://127.0.0.1:${await deadPort()}/hook`;
  const { deliveries } = await notified(clock.now(), [{ kind: 'webhook', url, secret }]);
  const [delivery] = deliveries;
  if (!delivery) throw new Error('no delivery');
  const runner = runnerAt(clock);
  const waits: number[] = [];
  for (let attempt = 1; attempt <= 8; attempt++) {
    expect(await runner.runOnce(), `attempt ${attempt}`).toBe(1);
    if (attempt < 8) waits.push(await toNextTry(clock, delivery.id));
  }
  const bases = [5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, 60 * MINUTE, 180 * MINUTE];
  waits.forEach((wait, i) => {
    expect(wait, `wait after attempt ${i + 1}`).toBeGreaterThanOrEqual(bases[i] ?? 0);
    expect(wait, `wait after attempt ${i + 1}`).toBeLessThanOrEqual((bases[i] ?? 0) * 1.1);
  });
  const failed = await deliveryOf(delivery.id);
  expect(failed).toMatchObject({ status: 'failed', attemptCount: 8, deliveredAt: null });
  expect(failed?.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(failed?.attempts.every((a) => a.statusCode === null && a.error === 'Could not connect: ECONNREFUSED')).toBe(
    true,
  );
  const job = (await jobsOf(file.db, 'alerts.deliver')).find((j) => j.uniqueKey === `alerts.deliver:${delivery.id}`);
  expect(job?.state).toBe('discarded');
  clock.advance(24 * 3_600 * SECOND);
  expect(await runner.runOnce()).toBe(0);
});

test('an email channel gets one mail per address in the outbox, with the alert and its link', async () => {
  const clock = startClock();
  const to = ['soc@example.com', 'oncall@example.com'];
  const { space, alert, deliveries } = await notified(clock.now(), [{ kind: 'email', to }], 'alert.resolved');
  expect(deliveries.map((d) => d.target)).toEqual(['soc@example.com, oncall@example.com']);
  expect(await runnerAt(clock).runOnce()).toBe(1);
  for (const address of to) {
    const mails = await file.db.select().from(outbox).where(eq(outbox.to, address));
    expect(mails, address).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.subject).toBe('[Spaceguard] Alert resolved: SQL injection from 198.51.100.7 (high)');
    for (const fact of [
      'SQL injection from 198.51.100.7',
      'high',
      'ip=198.51.100.7',
      'SQL injection',
      '6 matching events',
    ])
      expect(mail?.text).toContain(fact);
    expect(mail?.text).toContain(`${publicUrl}/console/alert/${space.id}/${alert.id}`);
  }
  expect(await deliveryOf(deliveries[0]?.id ?? '')).toMatchObject({ status: 'delivered', attemptCount: 1 });
});

test('a slow receiver times out after 10 s without holding up the other deliveries', async () => {
  const clock = startClock();
  const slow = await receiver(['hang']);
  const fast = await receiver([204]);
  const { deliveries } = await notified(clock.now(), [
    { kind: 'webhook', url: slow.url, secret },
    { kind: 'webhook', url: fast.url, secret },
  ]);
  const [toSlow, toFast] = deliveries.sort((a, b) => (a.target === slow.url ? -1 : b.target === slow.url ? 1 : 0));
  const runner = runnerAt(clock);
  const started = Date.now();
  expect(await runner.tick()).toBe(2);
  // The slow receiver holds its request while the fast one is answered and recorded.
  await vi.waitUntil(
    async () => slow.received.length === 1 && (await deliveryOf(toFast?.id ?? ''))?.status === 'delivered',
    { timeout: 5_000, interval: 20 },
  );
  expect(fast.received).toHaveLength(1);
  expect(await deliveryOf(toSlow?.id ?? '')).toMatchObject({ status: 'pending', attemptCount: 0 });
  await vi.waitUntil(async () => (await deliveryOf(toSlow?.id ?? ''))?.attemptCount === 1, {
    timeout: 14_000,
    interval: 50,
  });
  expect(Date.now() - started).toBeGreaterThanOrEqual(10 * SECOND);
  const timedOut = await deliveryOf(toSlow?.id ?? '');
  expect(timedOut).toMatchObject({ status: 'pending' });
  expect(timedOut?.attempts[0]).toMatchObject({ attempt: 1, statusCode: null, error: 'No answer within 10 s' });
  await runner.stop();
});

test('a notification exists only if the change that wants it commits', async () => {
  const { db } = file;
  const clock = startClock();
  const hook = await receiver([200]);
  const { space, rule, alert } = await notified(clock.now(), []);
  const ruleWithHook: AlertRuleRow = { ...rule, channels: [{ kind: 'webhook', url: hook.url, secret }] };
  const before = (await jobsOf(db, 'alerts.deliver')).length;
  await expect(
    db.transaction(async (tx) => {
      await notifyAlert(tx, { alert, rule: ruleWithHook, space, type: 'alert.updated', publicUrl, now: clock.now() });
      throw new Error('the alert change failed');
    }),
  ).rejects.toThrow('the alert change failed');
  expect(await db.select().from(alertDeliveries).where(eq(alertDeliveries.alertId, alert.id))).toEqual([]);
  expect(await jobsOf(db, 'alerts.deliver')).toHaveLength(before);
});

test('a delivery whose webhook channel was removed from the rule is marked failed and not sent', async () => {
  const clock = startClock();
  const hook = await receiver([200]);
  const { rule, deliveries } = await notified(clock.now(), [{ kind: 'webhook', url: hook.url, secret }]);
  await file.db.update(alertRules).set({ channels: [] }).where(eq(alertRules.id, rule.id));
  expect(await runnerAt(clock).runOnce()).toBe(1);
  expect(hook.received).toHaveLength(0);
  const gone = await deliveryOf(deliveries[0]?.id ?? '');
  expect(gone).toMatchObject({ status: 'failed', attemptCount: 1 });
  expect(gone?.attempts[0]?.error).toBe('The rule or this webhook channel was removed: not sent');
});

test('a redirect is a failed attempt, not followed', async () => {
  const clock = startClock();
  const elsewhere = await receiver([200]);
  const hook = await receiver([{ status: 302, headers: { location: elsewhere.url } }]);
  const { deliveries } = await notified(clock.now(), [{ kind: 'webhook', url: hook.url, secret }]);
  expect(await runnerAt(clock).runOnce()).toBe(1);
  expect(hook.received).toHaveLength(1);
  expect(elsewhere.received).toHaveLength(0);
  const row = await deliveryOf(deliveries[0]?.id ?? '');
  expect(row).toMatchObject({ status: 'pending', attemptCount: 1 });
  expect(row?.attempts[0]).toMatchObject({
    statusCode: 302,
    error: 'The receiver answered 302 (a redirect, which is not followed)',
  });
});

test("an alert's delivery log lists its notifications newest first, each with its attempts, without body or secret", async () => {
  const clock = startClock();
  const hook = await receiver([200]);
  const { space, rule, alert, deliveries } = await notified(clock.now(), [
    { kind: 'webhook', url: hook.url, secret },
    { kind: 'email', to: ['soc@example.com'] },
  ]);
  const runner = runnerAt(clock);
  expect(await runner.runOnce()).toBe(2);
  const resolved = { ...alert, status: 'resolved' as const };
  // Resolved a minute after it was notified as opened.
  const resolvedAt = new Date(clock.now().getTime() + MINUTE);
  await file.db.transaction((tx) =>
    notifyAlert(tx, { alert: resolved, rule, space, type: 'alert.resolved', publicUrl, now: resolvedAt }),
  );
  const log = await deliveriesOfAlert(file.db, alert.id);
  expect(log).toHaveLength(4);
  for (const entry of log) expect(Delivery.parse(entry)).toEqual(entry);
  expect(JSON.stringify(log)).not.toContain(secret);
  expect(log.map((d) => [d.type, d.status])).toEqual([
    ['alert.resolved', 'pending'],
    ['alert.resolved', 'pending'],
    ['alert.opened', 'delivered'],
    ['alert.opened', 'delivered'],
  ]);
  const opened = log.find((d) => d.id === deliveries.find((r) => r.channel === 'webhook')?.id);
  expect(opened).toMatchObject({ channel: 'webhook', target: hook.url, alertId: alert.id, ruleId: rule.id });
  expect(opened?.attempts).toEqual([
    { attempt: 1, at: clock.now().toISOString(), statusCode: 200, error: null, durationMs: expect.any(Number) },
  ]);
  expect(opened?.deliveredAt).toBe(clock.now().toISOString());
  expect(await deliveriesOfAlert(file.db, alert.id, 1)).toHaveLength(1);
});

test('the URL is checked again before each attempt: in production a loopback receiver is not called unless listed', async () => {
  const clock = startClock();
  const hook = await receiver([200]);
  const { deliveries } = await notified(clock.now(), [{ kind: 'webhook', url: hook.url, secret }]);
  const id = deliveries[0]?.id ?? '';
  expect(await runnerAt(clock, { production: true }).runOnce()).toBe(1);
  expect(hook.received).toHaveLength(0);
  expect((await deliveryOf(id))?.attempts[0]).toMatchObject({
    attempt: 1,
    statusCode: null,
    error:
      'url: “127.0.0.1” is a loopback address (127.0.0.0/8); webhooks must reach a public address. List the host in WEBHOOK_ALLOWED_HOSTS to allow it.',
  });
  // Once the host is listed, the retry goes through.
  await toNextTry(clock, id);
  expect(await runnerAt(clock, { production: true, webhookAllowedHosts: ['127.0.0.1'] }).runOnce()).toBe(1);
  expect(hook.received).toHaveLength(1);
  expect(await deliveryOf(id)).toMatchObject({ status: 'delivered', attemptCount: 2 });
});
