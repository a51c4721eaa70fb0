/**
 * A space's subscription as its owner sees it: plan, interval, status, period, scheduled change, usage and
 * card; the payment history; cancelling a scheduled change; refunds. The plan lives in `spaces.plan` (what the rest
 * of the app reads) and is mirrored in `subscriptions.plan`: `setPlan` changes both in the caller's transaction.
 */
import { and, desc, eq, max } from 'drizzle-orm';
import { invoiceLabel } from '../../../contract/billing.ts';
import {
  type BillingInterval,
  renewalGraceDays,
  renewalRetryDays,
  testModeMark,
} from '../../../contract/constants/billing.ts';
import { type Plan, planTerms } from '../../../contract/constants/plans.ts';
import type { Payment, PaymentList, Subscription } from '../../../contract/subscription.ts';
import type { SpaceCaller } from '../../caller.ts';
import type { Executor } from '../../db/database.ts';
import {
  type InvoiceRow,
  invoices,
  paymentMethods,
  type SubscriptionRow,
  subscriptions,
} from '../../db/schema/billing.ts';
import { type SpaceRow, spaces } from '../../db/schema/spaces.ts';
import { ApiError, notFound } from '../../errors.ts';
import { type Actor, recordActivity } from '../activity/record.ts';
import { overPlan, usageOf } from '../limits/limits.ts';
import { lockedSpace, lockSpace } from '../spaces/lock-space.ts';
import type { Current } from './proration.ts';

const DAY = 86_400_000;

/** The actor of what the renewal job does. */
export const billingActor = (at: Date): Actor => ({
  id: null,
  name: 'Spaceguard billing',
  ip: null,
  userAgent: null,
  at,
});

/** The space's subscription row (locked with `lock`), if it ever had one. */
export async function subscriptionOf(
  tx: Executor,
  spaceId: string,
  lock = false,
): Promise<SubscriptionRow | undefined> {
  const query = tx.select().from(subscriptions).where(eq(subscriptions.spaceId, spaceId));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The subscription as proration reads it; a space that never paid is on its plan without a period. */
export function currentOf(space: SpaceRow, row: SubscriptionRow | undefined): Current {
  return {
    plan: space.plan,
    interval: row?.interval ?? 'month',
    periodStart: space.plan === 'free' ? null : (row?.periodStart ?? null),
    periodEnd: space.plan === 'free' ? null : (row?.periodEnd ?? null),
  };
}

/** Sets the plan of the space (what limits read) and of its subscription, in the caller's transaction. */
export async function setPlan(tx: Executor, spaceId: string, plan: Plan, now: Date): Promise<void> {
  await tx.update(spaces).set({ plan, updatedAt: now }).where(eq(spaces.id, spaceId));
  await tx.update(subscriptions).set({ plan, updatedAt: now }).where(eq(subscriptions.spaceId, spaceId));
}

/** The next invoice number of the space (call with the space row locked): never reused, refunds included. */
export async function nextInvoiceNumber(tx: Executor, spaceId: string): Promise<number> {
  const [row] = await tx
    .select({ n: max(invoices.number) })
    .from(invoices)
    .where(eq(invoices.spaceId, spaceId));
  return (row?.n ?? 0) + 1;
}

/** When a past-due renewal is charged again (null: no retry left) and when the space falls back to Free. */
export function pastDueTimes(row: Pick<SubscriptionRow, 'failedAt' | 'retries'>): {
  nextRetry: Date | null;
  downgradeAt: Date;
} {
  const since = row.failedAt?.getTime() ?? 0;
  const retryDay = renewalRetryDays[row.retries];
  return {
    nextRetry: retryDay === undefined ? null : new Date(since + retryDay * DAY),
    downgradeAt: new Date(since + renewalGraceDays * DAY),
  };
}

/** What the owner sees: plan, period, status, scheduled change, usage against the plan, the card on file. */
export async function subscriptionView(tx: Executor, spaceId: string, now: Date): Promise<Subscription> {
  const [space] = await tx.select().from(spaces).where(eq(spaces.id, spaceId));
  if (!space) throw notFound('space');
  const row = await subscriptionOf(tx, spaceId);
  const current = currentOf(space, row);
  const [card] = row?.paymentMethodId
    ? await tx
        .select({ brand: paymentMethods.brand, last4: paymentMethods.last4 })
        .from(paymentMethods)
        .where(eq(paymentMethods.id, row.paymentMethodId))
    : [];
  const period =
    current.periodStart && current.periodEnd
      ? { start: current.periodStart.toISOString(), end: current.periodEnd.toISOString() }
      : null;
  const scheduled =
    row?.scheduledPlan && row.scheduledInterval && row.periodEnd && space.plan !== 'free'
      ? { plan: row.scheduledPlan, interval: row.scheduledInterval, at: row.periodEnd.toISOString() }
      : undefined;
  const pastDue =
    row?.status === 'past_due' && row.failedAt
      ? (() => {
          const times = pastDueTimes(row);
          return {
            since: row.failedAt.toISOString(),
            nextRetry: times.nextRetry?.toISOString() ?? null,
            downgradeAt: times.downgradeAt.toISOString(),
          };
        })()
      : undefined;
  return {
    plan: space.plan,
    interval: current.interval,
    status: row?.status ?? 'active',
    period,
    ...(scheduled ? { scheduledChange: scheduled } : {}),
    ...(pastDue ? { pastDue } : {}),
    paymentMethod: card ?? null,
    usage: await usageOf(tx, space, now),
    testMode: true,
    testModeMark,
  };
}

export async function getSubscription(sc: SpaceCaller): Promise<Subscription> {
  return subscriptionView(sc.deps.db, sc.space.id, sc.deps.now());
}

/** 409 `usage_over_plan` naming what to remove first, when the space uses more than `plan` allows. */
export async function refuseOverPlan(tx: Executor, space: SpaceRow, plan: Plan, now: Date): Promise<void> {
  const over = await overPlan(tx, space, plan, now);
  const keys = Object.keys(over);
  if (keys.length === 0) return;
  throw new ApiError(
    409,
    'usage_over_plan',
    `The space uses more than the ${planTerms[plan].label} plan allows. First: ${Object.values(over).join(' ')}`,
    { fields: over },
  );
}

/** Schedules `plan`/`interval` for the period's end (the caller checked usage), audited. */
export async function scheduleChange(
  tx: Executor,
  actor: Actor,
  space: SpaceRow,
  row: SubscriptionRow,
  target: { plan: Plan; interval: BillingInterval },
  now: Date,
): Promise<void> {
  await tx
    .update(subscriptions)
    .set({ scheduledPlan: target.plan, scheduledInterval: target.interval, updatedAt: now })
    .where(eq(subscriptions.spaceId, space.id));
  await recordActivity(tx, actor, {
    spaceId: space.id,
    action: 'subscription.schedule_change',
    objectType: 'subscription',
    objectId: space.id,
    change: {
      plan: { from: space.plan, to: target.plan },
      interval: { from: row.interval, to: target.interval },
      at: row.periodEnd?.toISOString() ?? null,
    },
  });
}

/** Cancels the scheduled change, if any (audited); answers the subscription. */
export async function cancelScheduledChange(sc: SpaceCaller): Promise<Subscription> {
  const now = sc.deps.now();
  return sc.deps.db.transaction(async (tx) => {
    await lockSpace(tx, sc.space.id);
    const row = await subscriptionOf(tx, sc.space.id, true);
    if (row?.scheduledPlan) {
      await tx
        .update(subscriptions)
        .set({ scheduledPlan: null, scheduledInterval: null, updatedAt: now })
        .where(eq(subscriptions.spaceId, sc.space.id));
      await recordActivity(tx, sc.actor, {
        spaceId: sc.space.id,
        action: 'subscription.cancel_scheduled_change',
        objectType: 'subscription',
        objectId: sc.space.id,
        change: { plan: { from: row.scheduledPlan, to: row.plan }, interval: row.scheduledInterval },
      });
    }
    return subscriptionView(tx, sc.space.id, now);
  });
}

/** An invoice as the payment history shows it. */
export function paymentView(row: InvoiceRow): Payment {
  return {
    id: row.id,
    number: invoiceLabel(row.number),
    date: row.createdAt.toISOString(),
    kind: row.kind,
    plan: row.plan,
    interval: row.interval,
    period: { start: row.periodStart.toISOString(), end: row.periodEnd.toISOString() },
    lines: row.lines,
    amountCents: row.totalCents,
    status: row.status,
    failureMessage: row.failureMessage,
    card: row.cardBrand && row.cardLast4 ? { brand: row.cardBrand, last4: row.cardLast4 } : null,
    refundedAt: row.refundedAt?.toISOString() ?? null,
  };
}

/** The space's invoices, newest first. */
export async function listPayments(sc: SpaceCaller): Promise<PaymentList> {
  const rows = await sc.deps.db
    .select()
    .from(invoices)
    .where(eq(invoices.spaceId, sc.space.id))
    .orderBy(desc(invoices.number));
  return { items: rows.map(paymentView), testMode: true };
}

/** One invoice of the space; 404 when there is none. */
export async function invoiceOf(tx: Executor, spaceId: string, id: string, lock = false): Promise<InvoiceRow> {
  const query = tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.spaceId, spaceId), eq(invoices.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('payment');
  return row;
}

/** Back to Free now, keeping every object (over-limit ones become read-only; nothing is deleted), audited. */
export async function endPaidPlan(
  tx: Executor,
  actor: Actor,
  row: SubscriptionRow,
  now: Date,
  reason: string,
): Promise<void> {
  await tx
    .update(subscriptions)
    .set({
      plan: 'free',
      status: 'active',
      periodStart: null,
      periodEnd: null,
      scheduledPlan: null,
      scheduledInterval: null,
      failedAt: null,
      retries: 0,
      updatedAt: now,
    })
    .where(eq(subscriptions.spaceId, row.spaceId));
  await setPlan(tx, row.spaceId, 'free', now);
  await recordActivity(tx, actor, {
    spaceId: row.spaceId,
    action: 'subscription.downgrade',
    objectType: 'subscription',
    objectId: row.spaceId,
    change: { plan: { from: row.plan, to: 'free' }, reason },
  });
}

/**
 * Refunds a paid invoice in full through the provider (audited); 409 `not_refundable` unless it is paid. A payment
 * for the current period (its period includes now) pays for the plan the space is on: refunding it ends the paid
 * plan now, and the space is on Free at once. A payment for a period that is over leaves the plan as it is.
 */
export async function refundPayment(sc: SpaceCaller, id: string): Promise<Payment> {
  const now = sc.deps.now();
  return sc.deps.db.transaction(async (tx) => {
    const space = await lockedSpace(tx, sc.space.id);
    const row = await invoiceOf(tx, sc.space.id, id, true);
    if (row.status !== 'paid' || !row.providerPaymentId)
      throw new ApiError(409, 'not_refundable', `Only a paid invoice can be refunded; this one is ${row.status}.`);
    const { refundId } = await sc.deps.billing.refund({
      paymentId: row.providerPaymentId,
      amountCents: row.totalCents,
      idempotencyKey: `refund:${row.id}`,
    });
    const [updated] = await tx
      .update(invoices)
      .set({ status: 'refunded', refundedAt: now, providerRefundId: refundId })
      .where(eq(invoices.id, row.id))
      .returning();
    await recordActivity(tx, sc.actor, {
      spaceId: sc.space.id,
      action: 'payment.refund',
      objectType: 'invoice',
      objectId: row.id,
      change: {
        number: invoiceLabel(row.number),
        amountCents: row.totalCents,
        status: { from: 'paid', to: 'refunded' },
      },
    });
    const subscription = await subscriptionOf(tx, sc.space.id, true);
    if (space.plan !== 'free' && subscription?.periodEnd && row.periodStart <= now && now < row.periodEnd)
      await endPaidPlan(
        tx,
        sc.actor,
        subscription,
        now,
        `The payment for the current period (${invoiceLabel(row.number)}) was refunded.`,
      );
    return paymentView(updated ?? row);
  });
}
