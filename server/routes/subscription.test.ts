/** Subscriptions and billing, through the API with an injected clock; PGlite, or PostgreSQL with TEST_DATABASE_URL. */
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { testCards, testModeMark } from '../../contract/constants/billing.ts';
import { activity } from '../db/schema/activity.ts';
import { invoices, paymentMethods, subscriptions } from '../db/schema/billing.ts';
import { firewalls } from '../db/schema/firewalls.ts';
import { spaces } from '../db/schema/spaces.ts';
import { renewDue, renewWorker } from '../services/billing/workers/renew-worker.ts';
import { insertFirewall } from '../test/firewall-row.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';
import { testClock } from '../test/jobs.ts';
import { runUntilIdle } from '../test/run-jobs.ts';
import { spaceWithRoles } from '../test/space-roles.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const DAY = 86_400_000;
const clock = testClock('2026-11-01T00:00:00.000Z');
let t: TestApi;
let owner: string;
let as: Record<string, string>;
let rolesSpace: string;

beforeAll(async () => {
  t = await createTestApi({ now: clock.now });
  const cast = await spaceWithRoles(t, 'Billing roles');
  as = cast.as;
  owner = as.owner ?? '';
  rolesSpace = cast.spaceId;
});
afterAll(async () => {
  await t.close();
});

const card = (number: string) => ({ number, expMonth: 12, expYear: 2030, cvc: '123' });

async function newSpace(name = `Space ${randomUUID().slice(0, 8)}`): Promise<string> {
  const res = await t.read(t.api(owner).spaces.$post({ json: { name } }));
  expect(res.status, res.text).toBe(201);
  return res.json.id;
}

function checkout(spaceId: string, body: unknown, key: string = randomUUID()) {
  return t.raw('POST', `/api/spaces/${spaceId}/subscription/checkout`, {
    cookie: owner,
    body,
    headers: { 'idempotency-key': key },
  });
}

const invoicesOf = (spaceId: string) =>
  t.db.select().from(invoices).where(eq(invoices.spaceId, spaceId)).orderBy(asc(invoices.number));
const planOf = async (spaceId: string) =>
  (await t.db.select({ plan: spaces.plan }).from(spaces).where(eq(spaces.id, spaceId)))[0]?.plan;
const subOf = async (spaceId: string) =>
  (await t.db.select().from(subscriptions).where(eq(subscriptions.spaceId, spaceId)))[0];
const renew = () => runUntilIdle(t.db, [renewWorker], { now: clock.now, deps: t.deps });

describe('checkout', () => {
  test('a Free space shows its plan, usage and the test mode', async () => {
    clock.set('2026-11-01T00:00:00.000Z');
    const spaceId = await newSpace();
    const res = await t.read(t.api(owner).spaces[':spaceId'].subscription.$get({ param: { spaceId } }));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ plan: 'free', status: 'active', period: null, testMode: true, testModeMark });
    expect(Object.keys(res.json.usage).sort()).toEqual(
      ['alertRules', 'assets', 'dashboards', 'eventsThisMonth', 'firewalls', 'members', 'retentionDays'].sort(),
    );
    expect(res.json.usage.members).toEqual({ used: 1, limit: 3 });
  });

  test('the success card upgrades Free to Pro at once, a new period from today at the full price', async () => {
    clock.set('2026-11-10T12:00:00.000Z');
    const spaceId = await newSpace();
    const res = await checkout(spaceId, { plan: 'pro', interval: 'month', card: card('4242 4242 4242 4242') });
    expect(res.status, res.text).toBe(200);
    expect(await planOf(spaceId)).toBe('pro');
    expect(res.json.subscription).toMatchObject({
      plan: 'pro',
      interval: 'month',
      status: 'active',
      period: { start: '2026-11-10T12:00:00.000Z', end: '2026-12-10T12:00:00.000Z' },
      paymentMethod: { brand: 'Visa', last4: '4242' },
    });
    expect(res.json.invoice).toMatchObject({
      number: 'INV-0001',
      amountCents: 4900,
      status: 'paid',
      kind: 'subscribe',
    });
    // The number is never stored: only brand, last four and the test behaviour.
    const [pm] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.spaceId, spaceId));
    expect(pm).toMatchObject({ brand: 'Visa', last4: '4242', behaviour: 'success' });
    expect(JSON.stringify(pm)).not.toContain('4242424242424242');
    const audit = await t.db.select().from(activity).where(eq(activity.spaceId, spaceId));
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['subscription.change', 'payment.pay']));
  });

  test.each([
    ['4000 0000 0000 0002', 'card_declined'],
    ['4000000000009995', 'insufficient_funds'],
  ])('card %s answers 402 %s and changes nothing', async (number, code) => {
    const spaceId = await newSpace();
    const res = await checkout(spaceId, { plan: 'business', interval: 'year', card: card(number) });
    expect(res.status).toBe(402);
    expect(res.json.error.code).toBe(code);
    expect(res.json.error.message).toMatch(/declined|insufficient funds/);
    expect(await planOf(spaceId)).toBe('free');
    expect(await invoicesOf(spaceId)).toEqual([]);
    expect(await subOf(spaceId)).toBeUndefined();
    expect(await t.db.select().from(paymentMethods).where(eq(paymentMethods.spaceId, spaceId))).toEqual([]);
  });

  test('a number failing Luhn, a card that is not a test card, an expired card: 400 on the field', async () => {
    const spaceId = await newSpace();
    const luhn = await checkout(spaceId, { plan: 'pro', interval: 'month', card: card('4242424242424241') });
    expect(luhn.status).toBe(400);
    expect(luhn.json.error.fields['card.number']).toMatch(/not valid/);
    const real = await checkout(spaceId, { plan: 'pro', interval: 'month', card: card('5555555555554444') });
    expect(real.status).toBe(400);
    expect(real.json.error.fields['card.number']).toMatch(/test cards/);
    const expired = await checkout(spaceId, {
      plan: 'pro',
      interval: 'month',
      card: { ...card(testCards.success.number), expYear: 2025 },
    });
    expect(expired.status).toBe(400);
    expect(await planOf(spaceId)).toBe('free');
  });

  test('the same Idempotency-Key twice charges once; another body under it is refused; no key is 400', async () => {
    const spaceId = await newSpace();
    const key = randomUUID();
    const body = { plan: 'pro', interval: 'month', card: card(testCards.success.number) };
    const first = await checkout(spaceId, body, key);
    const second = await checkout(spaceId, body, key);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.json).toEqual(first.json);
    expect(await invoicesOf(spaceId)).toHaveLength(1);
    const other = await checkout(spaceId, { ...body, plan: 'business' }, key);
    expect(other.status).toBe(422);
    expect(other.json.error.code).toBe('idempotency_key_reused');
    const none = await t.raw('POST', `/api/spaces/${spaceId}/subscription/checkout`, { cookie: owner, body });
    expect(none.status).toBe(400);
    expect(none.json.error.fields['idempotency-key']).toBeDefined();
  });

  test('a mid-period upgrade previews and charges the proration line by line; invoice numbers are sequential', async () => {
    clock.set('2026-11-01T00:00:00.000Z');
    const spaceId = await newSpace();
    expect(
      (await checkout(spaceId, { plan: 'pro', interval: 'month', card: card(testCards.success.number) })).status,
    ).toBe(200);
    clock.set('2026-11-16T00:00:00.000Z'); // half of the 30-day period left
    const preview = await t.read(
      t.api(owner).spaces[':spaceId'].subscription.checkout.preview.$post({
        param: { spaceId },
        json: { plan: 'business', interval: 'month' },
      }),
    );
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json).toMatchObject({
      effect: 'upgrade',
      totalCents: 12_500,
      period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
    });
    expect(preview.json.lines.map((l: { kind: string; amountCents: number }) => [l.kind, l.amountCents])).toEqual([
      ['credit', -2450],
      ['charge', 14_950],
    ]);
    expect(preview.json.lines[0].description).toBe('Unused time on Pro, monthly, 2026-11-16 to 2026-12-01');
    // No card: the stored one is charged.
    const paid = await checkout(spaceId, { plan: 'business', interval: 'month' });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.json.invoice.lines).toEqual(preview.json.lines);
    expect(await planOf(spaceId)).toBe('business');
    const list = await t.read(t.api(owner).spaces[':spaceId'].payments.$get({ param: { spaceId } }));
    expect(list.json.items.map((p: { number: string; amountCents: number }) => [p.number, p.amountCents])).toEqual([
      ['INV-0002', 12_500],
      ['INV-0001', 4900],
    ]);
  });
});

describe('downgrades', () => {
  test('refused with the list while usage exceeds the lower plan, scheduled when under, cancelled on request', async () => {
    clock.set('2026-11-01T00:00:00.000Z');
    const spaceId = await newSpace();
    await checkout(spaceId, { plan: 'pro', interval: 'month', card: card(testCards.success.number) });
    await insertFirewall(t.db, spaceId, clock.now(), 'one', 'one.example.com');
    const second = await insertFirewall(t.db, spaceId, clock.now(), 'two', 'two.example.com');
    const refused = await checkout(spaceId, { plan: 'free', interval: 'month' });
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('usage_over_plan');
    expect(refused.json.error.fields.firewalls).toBe('Remove 1 of 2 firewalls: the Free plan allows 1.');
    expect((await subOf(spaceId))?.scheduledPlan).toBeNull();

    await t.db.delete(firewalls).where(eq(firewalls.id, second));
    const scheduled = await checkout(spaceId, { plan: 'free', interval: 'month' });
    expect(scheduled.status, scheduled.text).toBe(200);
    expect(scheduled.json.invoice).toBeNull();
    expect(scheduled.json.subscription.scheduledChange).toEqual({
      plan: 'free',
      interval: 'month',
      at: '2026-12-01T00:00:00.000Z',
    });
    expect(await planOf(spaceId)).toBe('pro');

    const cancelled = await t.read(
      t.api(owner).spaces[':spaceId'].subscription['scheduled-change'].$delete({ param: { spaceId } }),
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.scheduledChange).toBeUndefined();

    // Scheduled again, it takes effect at the period's end: Free, no charge, the firewall kept.
    await checkout(spaceId, { plan: 'free', interval: 'month' });
    clock.set('2026-12-01T00:05:00.000Z');
    await renewDue(t.deps, clock.now());
    expect(await planOf(spaceId)).toBe('free');
    expect(await invoicesOf(spaceId)).toHaveLength(1);
    expect(await t.db.select().from(firewalls).where(eq(firewalls.spaceId, spaceId))).toHaveLength(1);
  });
  test('a paid plan given without a period (the demo) falls back to Free at once, within the usage check', async () => {
    clock.set('2026-11-01T00:00:00.000Z');
    const spaceId = await newSpace();
    await t.db.update(spaces).set({ plan: 'pro' }).where(eq(spaces.id, spaceId));
    const res = await checkout(spaceId, { plan: 'free', interval: 'month' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.subscription).toMatchObject({ plan: 'free', period: null });
    expect(await planOf(spaceId)).toBe('free');
    expect(await invoicesOf(spaceId)).toEqual([]);
  });
});

describe('renewal', () => {
  test('past the period end, the renew job run twice charges once and extends the period', async () => {
    clock.set('2026-11-01T00:00:00.000Z');
    const spaceId = await newSpace();
    await checkout(spaceId, { plan: 'pro', interval: 'month', card: card(testCards.success.number) });
    clock.set('2026-12-01T00:20:00.000Z');
    await renew();
    await renew();
    await renewDue(t.deps, clock.now());
    const rows = await invoicesOf(spaceId);
    expect(rows.map((r) => [r.number, r.kind, r.status, r.totalCents])).toEqual([
      [1, 'subscribe', 'paid', 4900],
      [2, 'renewal', 'paid', 4900],
    ]);
    const sub = await subOf(spaceId);
    expect(sub?.periodStart?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(sub?.periodEnd?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(sub?.status).toBe('active');
  });

  test('a failing card: past due, retried on days 1, 3 and 5, Free after 7 days with every object kept', async () => {
    clock.set('2026-11-01T00:00:00.000Z');
    const spaceId = await newSpace();
    const first = await checkout(spaceId, {
      plan: 'pro',
      interval: 'month',
      card: card(testCards.renewal_declined.number),
    });
    expect(first.status, first.text).toBe(200);
    await insertFirewall(t.db, spaceId, clock.now(), 'a', 'a.example.com');
    await insertFirewall(t.db, spaceId, clock.now(), 'b', 'b.example.com');
    const failedAt = new Date('2026-12-01T01:00:00.000Z').getTime();
    const attempts = async () =>
      (
        await t.db
          .select()
          .from(activity)
          .where(and(eq(activity.spaceId, spaceId), eq(activity.action, 'payment.fail')))
      ).length;

    clock.set(new Date(failedAt));
    await renew();
    let sub = await subOf(spaceId);
    expect(sub?.status).toBe('past_due');
    expect(await attempts()).toBe(1);
    // A month on, the session of the sign-up has ended: sign in again.
    owner = (await t.signIn('owner@example.com')).cookie;
    const view = await t.read(t.api(owner).spaces[':spaceId'].subscription.$get({ param: { spaceId } }));
    expect(view.json.status, view.text).toBe('past_due');
    expect(view.json.pastDue).toEqual({
      since: '2026-12-01T01:00:00.000Z',
      nextRetry: '2026-12-02T01:00:00.000Z',
      downgradeAt: '2026-12-08T01:00:00.000Z',
    });

    const expected: [number, number][] = [
      [0.5, 1],
      [1, 2],
      [2, 2],
      [3, 3],
      [4, 3],
      [5, 4],
      [6, 4],
    ];
    for (const [days, count] of expected) {
      clock.set(new Date(failedAt + days * DAY));
      await renewDue(t.deps, clock.now());
      expect(await attempts(), `day ${days}`).toBe(count);
      expect(await planOf(spaceId), `day ${days}`).toBe('pro');
    }
    clock.set(new Date(failedAt + 7 * DAY));
    await renewDue(t.deps, clock.now());
    expect(await planOf(spaceId)).toBe('free');
    sub = await subOf(spaceId);
    expect(sub).toMatchObject({ plan: 'free', status: 'active' });
    expect(await t.db.select().from(firewalls).where(eq(firewalls.spaceId, spaceId))).toHaveLength(2);
    const rows = await invoicesOf(spaceId);
    expect(rows.map((r) => [r.kind, r.status])).toEqual([
      ['subscribe', 'paid'],
      ['renewal', 'failed'],
    ]);
  });

  test('a past-due renewal paid on a retry makes the subscription active for the next period', async () => {
    clock.set('2026-11-01T00:00:00.000Z');
    const spaceId = await newSpace();
    await checkout(spaceId, { plan: 'pro', interval: 'month', card: card(testCards.renewal_declined.number) });
    clock.set('2026-12-01T00:00:00.000Z');
    await renewDue(t.deps, clock.now());
    expect((await subOf(spaceId))?.status).toBe('past_due');
    await t.db.update(paymentMethods).set({ behaviour: 'success' }).where(eq(paymentMethods.spaceId, spaceId));
    clock.set('2026-12-02T00:00:00.000Z');
    await renewDue(t.deps, clock.now());
    const sub = await subOf(spaceId);
    expect(sub?.status).toBe('active');
    expect(sub?.periodEnd?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect((await invoicesOf(spaceId)).map((r) => r.status)).toEqual(['paid', 'paid']);
  });
});

describe('payments', () => {
  test('the receipt is a standalone HTML page with the number, lines, total, card and test mark, escaped', async () => {
    clock.set('2026-11-01T00:00:00.000Z');
    const spaceId = await newSpace('Acme <script>alert(1)</script> & "Co"');
    const paid = await checkout(spaceId, { plan: 'pro', interval: 'month', card: card(testCards.success.number) });
    const res = await t.read(
      t.api(owner).spaces[':spaceId'].payments[':id'].receipt.$get({ param: { spaceId, id: paid.json.invoice.id } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/^<!doctype html>/);
    expect(res.text).toContain('INV-0001');
    expect(res.text).toContain('Subscription: Pro, monthly, 2026-11-01 to 2026-12-01');
    expect(res.text).toContain('$49.00');
    expect(res.text).toContain('Visa ending in 4242');
    expect(res.text).toContain(testModeMark);
    expect(res.text).toContain('@media print');
    expect(res.text).toContain('Acme &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
    expect(res.text).not.toContain('<script>');
    expect(res.text).not.toMatch(/<nav|<script/);
  });

  test('an owner refunds a paid invoice once (audited); the receipt says refunded', async () => {
    const spaceId = await newSpace();
    const paid = await checkout(spaceId, { plan: 'pro', interval: 'month', card: card(testCards.success.number) });
    const id = paid.json.invoice.id;
    const refund = await t.read(
      t.api(owner).spaces[':spaceId'].payments[':id'].refund.$post({ param: { spaceId, id } }),
    );
    expect(refund.status, refund.text).toBe(200);
    expect(refund.json.status).toBe('refunded');
    const again = await t.read(
      t.api(owner).spaces[':spaceId'].payments[':id'].refund.$post({ param: { spaceId, id } }),
    );
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('not_refundable');
    const audit = await t.db
      .select()
      .from(activity)
      .where(and(eq(activity.spaceId, spaceId), eq(activity.action, 'payment.refund')));
    expect(audit).toHaveLength(1);
    const receipt = await t.read(
      t.api(owner).spaces[':spaceId'].payments[':id'].receipt.$get({ param: { spaceId, id } }),
    );
    expect(receipt.text).toContain('Refunded');
  });

  test("refunding the current period's payment ends the paid plan now; a past period's refund leaves it", async () => {
    clock.set('2026-11-01T00:00:00.000Z');
    owner = (await t.signIn('owner@example.com')).cookie;
    const spaceId = await newSpace();
    await checkout(spaceId, { plan: 'pro', interval: 'month', card: card(testCards.success.number) });
    await insertFirewall(t.db, spaceId, clock.now(), 'one', 'one.example.com');
    await insertFirewall(t.db, spaceId, clock.now(), 'two', 'two.example.com');
    clock.set('2026-12-01T00:20:00.000Z');
    await renewDue(t.deps, clock.now());
    owner = (await t.signIn('owner@example.com')).cookie;
    const refund = (n: number) =>
      invoicesOf(spaceId).then((rows) =>
        t.read(
          t.api(owner).spaces[':spaceId'].payments[':id'].refund.$post({ param: { spaceId, id: String(rows[n]?.id) } }),
        ),
      );

    clock.set('2026-12-05T00:00:00.000Z');
    expect((await refund(0)).status).toBe(200); // November's: that period is over.
    expect(await planOf(spaceId)).toBe('pro');

    const current = await refund(1); // December's: the plan the space is on.
    expect(current.status, current.text).toBe(200);
    expect(current.json.status).toBe('refunded');
    const view = await t.read(t.api(owner).spaces[':spaceId'].subscription.$get({ param: { spaceId } }));
    expect(view.json).toMatchObject({ plan: 'free', period: null, status: 'active' });
    expect(view.json.usage.firewalls).toEqual({ used: 2, limit: 1 });
    const downgrades = await t.db
      .select()
      .from(activity)
      .where(and(eq(activity.spaceId, spaceId), eq(activity.action, 'subscription.downgrade')));
    expect(downgrades.map((a) => a.change)).toEqual([
      { plan: { from: 'pro', to: 'free' }, reason: 'The payment for the current period (INV-0002) was refunded.' },
    ]);
    // Nothing renews a plan that ended.
    clock.set('2027-01-01T00:20:00.000Z');
    await renewDue(t.deps, clock.now());
    expect((await invoicesOf(spaceId)).map((r) => r.status)).toEqual(['refunded', 'refunded']);
    expect(await t.db.select().from(firewalls).where(eq(firewalls.spaceId, spaceId))).toHaveLength(2);
  });
});

test('admins, analysts, viewers and strangers get 404 on every subscription route', async () => {
  clock.set('2026-11-01T00:00:00.000Z'); // while the cast's sessions are valid
  const paid = await checkout(rolesSpace, { plan: 'pro', interval: 'month', card: card(testCards.success.number) });
  expect(paid.status).toBe(200);
  const id = paid.json.invoice.id;
  const calls: [string, string, unknown?][] = [
    ['GET', `/api/spaces/${rolesSpace}/subscription`],
    ['POST', `/api/spaces/${rolesSpace}/subscription/checkout/preview`, { plan: 'business', interval: 'month' }],
    ['POST', `/api/spaces/${rolesSpace}/subscription/checkout`, { plan: 'business', interval: 'month' }],
    ['DELETE', `/api/spaces/${rolesSpace}/subscription/scheduled-change`],
    ['GET', `/api/spaces/${rolesSpace}/payments`],
    ['GET', `/api/spaces/${rolesSpace}/payments/${id}/receipt`],
    ['POST', `/api/spaces/${rolesSpace}/payments/${id}/refund`],
  ];
  for (const who of ['admin', 'analyst', 'viewer', 'stranger'])
    for (const [method, path, body] of calls) {
      const res = await t.raw(method, path, {
        cookie: as[who] ?? '',
        headers: { 'idempotency-key': randomUUID() },
        ...(body ? { body } : {}),
      });
      expect(res.status, `${who} ${method} ${path}`).toBe(404);
      expect(res.json.error.code).toBe('not_found');
    }
  expect(await planOf(rolesSpace)).toBe('pro');
  expect(await invoicesOf(rolesSpace)).toHaveLength(1);
});
