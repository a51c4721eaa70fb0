/**
 * `billing.renew`, every 15 minutes (the jobs module's lease and window key make one process run it once per window):
 * subscriptions whose period ended by the clock (`deps.now()`) are renewed once. The renewal invoice is unique per
 * (space, period start, kind), so a second run cannot charge again. A scheduled change takes effect first (Free: the
 * plan simply changes; a lower paid plan is charged at its price). A failed charge makes the subscription past due;
 * it is charged again 1, 3 and 5 days after the failure, and after 7 days the space falls back to Free, keeping every
 * object (over-limit ones become read-only; nothing is deleted).
 */
import { and, eq, lte, ne } from 'drizzle-orm';
import { invoiceLabel } from '../../../../contract/billing.ts';
import { planTerms } from '../../../../contract/constants/plans.ts';
import type { Executor } from '../../../db/database.ts';
import {
  type InvoiceRow,
  invoices,
  paymentMethods,
  type SubscriptionRow,
  subscriptions,
} from '../../../db/schema/billing.ts';
import type { AppDeps } from '../../../deps.ts';
import { recordActivity } from '../../activity/record.ts';
import type { WindowArgs } from '../../jobs/periodic.ts';
import { defineWorker } from '../../jobs/worker.ts';
import { lockSpace } from '../../spaces/lock-space.ts';
import { addInterval, periodLine } from '../proration.ts';
import type { PaymentOutcome } from '../provider.ts';
import {
  billingActor,
  endPaidPlan,
  nextInvoiceNumber,
  pastDueTimes,
  setPlan,
  subscriptionOf,
} from '../subscription.ts';

export const renewWorker = defineWorker<WindowArgs>({
  kind: 'billing.renew',
  queue: 'billing',
  every: '15m',
  timeoutMs: 300_000,
  async perform(_args, ctx) {
    await renewDue(ctx.deps, ctx.now());
  },
});

/** Renews, retries or downgrades every subscription whose period ended by `now`; answers how many it looked at. */
export async function renewDue(deps: AppDeps, now: Date): Promise<number> {
  const due = await deps.db
    .select({ spaceId: subscriptions.spaceId })
    .from(subscriptions)
    .where(and(ne(subscriptions.plan, 'free'), lte(subscriptions.periodEnd, now)));
  for (const { spaceId } of due)
    await deps.db.transaction(async (tx) => {
      await lockSpace(tx, spaceId);
      const row = await subscriptionOf(tx, spaceId, true);
      if (!row || row.plan === 'free' || !row.periodEnd || row.periodEnd > now) return;
      if (row.status === 'past_due') await retry(deps, tx, row, now);
      else await renew(deps, tx, row, now);
    });
  return due.length;
}

/** Charges an invoice's total off-session with the space's stored card. */
async function charge(deps: AppDeps, tx: Executor, row: SubscriptionRow, invoice: InvoiceRow, attempt: number) {
  const [pm] = row.paymentMethodId
    ? await tx.select().from(paymentMethods).where(eq(paymentMethods.id, row.paymentMethodId))
    : [];
  if (!pm) return { outcome: null, card: null };
  const paymentMethod = { token: pm.providerToken, brand: pm.brand, last4: pm.last4, behaviour: pm.behaviour };
  const request = {
    spaceId: row.spaceId,
    amountCents: invoice.totalCents,
    description: `Spaceguard ${planTerms[invoice.plan].label} renewal ${invoiceLabel(invoice.number)}`,
    idempotencyKey: `renewal:${invoice.id}:${attempt}`,
    offSession: true,
  };
  const session = await deps.billing.createCheckout(request, { paymentMethod });
  const outcome: PaymentOutcome = await deps.billing.confirmPayment(session, request);
  return { outcome, card: pm };
}

/** A period ended: apply the scheduled change, then charge the next period (once: the invoice is unique). */
async function renew(deps: AppDeps, tx: Executor, row: SubscriptionRow, now: Date): Promise<void> {
  const spaceId = row.spaceId;
  const start = row.periodEnd as Date;
  if (row.scheduledPlan === 'free') {
    await endPaidPlan(tx, billingActor(now), row, now, 'The scheduled downgrade took effect.');
    return;
  }
  const plan = row.scheduledPlan ?? row.plan;
  const interval = row.scheduledInterval ?? row.interval;
  const [already] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.spaceId, spaceId), eq(invoices.periodStart, start), eq(invoices.kind, 'renewal')));
  if (already) return;
  const end = addInterval(start, interval);
  const lines = [periodLine(plan, interval, start, end)];
  const number = await nextInvoiceNumber(tx, spaceId);
  const [invoice] = await tx
    .insert(invoices)
    .values({
      spaceId,
      number,
      kind: 'renewal',
      plan,
      interval,
      periodStart: start,
      periodEnd: end,
      lines,
      totalCents: lines[0]?.amountCents ?? 0,
      status: 'failed',
      createdAt: now,
    })
    .returning();
  if (!invoice) throw new Error('the renewal invoice was not stored');
  await settle(deps, tx, row, invoice, now, 1);
}

/** A past-due subscription: charge again on the retry days, fall back to Free after the grace days. */
async function retry(deps: AppDeps, tx: Executor, row: SubscriptionRow, now: Date): Promise<void> {
  const { nextRetry, downgradeAt } = pastDueTimes(row);
  if (now >= downgradeAt) {
    await endPaidPlan(tx, billingActor(now), row, now, 'The renewal stayed unpaid for 7 days.');
    return;
  }
  if (!nextRetry || now < nextRetry) return;
  const [invoice] = await tx
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.spaceId, row.spaceId),
        eq(invoices.periodStart, row.periodEnd as Date),
        eq(invoices.kind, 'renewal'),
      ),
    );
  if (invoice?.status !== 'failed') return;
  await settle(deps, tx, row, invoice, now, row.retries + 2);
}

/** Charges a renewal invoice: paid extends the period (and applies its plan); failed makes or keeps it past due. */
async function settle(
  deps: AppDeps,
  tx: Executor,
  row: SubscriptionRow,
  invoice: InvoiceRow,
  now: Date,
  attempt: number,
): Promise<void> {
  const spaceId = row.spaceId;
  const { outcome, card } = await charge(deps, tx, row, invoice, attempt);
  const cardFields = card ? { cardBrand: card.brand, cardLast4: card.last4 } : {};
  if (outcome?.status === 'succeeded') {
    await tx
      .update(invoices)
      .set({ status: 'paid', failureMessage: null, providerPaymentId: outcome.paymentId, ...cardFields })
      .where(eq(invoices.id, invoice.id));
    await tx
      .update(subscriptions)
      .set({
        plan: invoice.plan,
        interval: invoice.interval,
        status: 'active',
        periodStart: invoice.periodStart,
        periodEnd: invoice.periodEnd,
        scheduledPlan: null,
        scheduledInterval: null,
        failedAt: null,
        retries: 0,
        updatedAt: now,
      })
      .where(eq(subscriptions.spaceId, spaceId));
    if (invoice.plan !== row.plan) await setPlan(tx, spaceId, invoice.plan, now);
    await recordActivity(tx, billingActor(now), {
      spaceId,
      action: 'subscription.renew',
      objectType: 'subscription',
      objectId: spaceId,
      change: {
        plan: { from: row.plan, to: invoice.plan },
        period: { start: invoice.periodStart.toISOString(), end: invoice.periodEnd.toISOString() },
        attempt,
      },
    });
    await recordActivity(tx, billingActor(now), {
      spaceId,
      action: 'payment.pay',
      objectType: 'invoice',
      objectId: invoice.id,
      change: { number: invoiceLabel(invoice.number), amountCents: invoice.totalCents },
    });
    return;
  }
  const message = outcome?.status === 'failed' ? outcome.message : 'No card on file.';
  await tx
    .update(invoices)
    .set({
      status: 'failed',
      failureMessage: message,
      ...(outcome ? { providerPaymentId: outcome.paymentId } : {}),
      ...cardFields,
    })
    .where(eq(invoices.id, invoice.id));
  const first = row.status !== 'past_due';
  await tx
    .update(subscriptions)
    .set({
      status: 'past_due',
      failedAt: first ? now : row.failedAt,
      retries: first ? 0 : row.retries + 1,
      updatedAt: now,
    })
    .where(eq(subscriptions.spaceId, spaceId));
  await recordActivity(tx, billingActor(now), {
    spaceId,
    action: 'payment.fail',
    objectType: 'invoice',
    objectId: invoice.id,
    change: { number: invoiceLabel(invoice.number), amountCents: invoice.totalCents, message, attempt },
  });
}
