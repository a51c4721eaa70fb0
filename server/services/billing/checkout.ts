/**
 * Checkout: the preview of what a plan change charges, line by line, and the change itself. Paying now
 * (from Free, or an upgrade) charges through the provider and, only when the payment succeeded, stores the card's
 * token, the invoice and the new plan in one transaction; a declined card answers 402 and changes nothing. A lower
 * plan is scheduled for the period's end, refused with 409 while usage exceeds it. A retried checkout under the same
 * Idempotency-Key answers what the first one answered, without a second charge. Checkouts of one space run one at a
 * time under its row lock and are quoted from the row as the lock found it: the second of two identical checkouts
 * sent at once answers 409 `no_change` and charges nothing; an upgrade racing a purchase is credited for it.
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { invoiceLabel } from '../../../contract/billing.ts';
import { plans, planTerms } from '../../../contract/constants/plans.ts';
import type {
  CheckoutBody,
  CheckoutPreview,
  CheckoutPreviewBody,
  CheckoutResult,
} from '../../../contract/subscription.ts';
import type { SpaceCaller } from '../../caller.ts';
import type { Executor } from '../../db/database.ts';
import {
  idempotencyKeys,
  invoices,
  paymentMethods,
  type SubscriptionRow,
  subscriptions,
} from '../../db/schema/billing.ts';
import type { SpaceRow } from '../../db/schema/spaces.ts';
import { ApiError } from '../../errors.ts';
import { recordActivity } from '../activity/record.ts';
import { lockedSpace } from '../spaces/lock-space.ts';
import { type Quote, quote } from './proration.ts';
import { type CardInput, CardRejected, type Checkout, type PaymentMethodRef } from './provider.ts';
import {
  currentOf,
  nextInvoiceNumber,
  paymentView,
  refuseOverPlan,
  scheduleChange,
  setPlan,
  subscriptionOf,
  subscriptionView,
} from './subscription.ts';

type Change = Exclude<Quote, { effect: 'none' }>;

/**
 * The quote of a change, refused when there is nothing to change or a lower plan does not fit the space's usage.
 * `space` is the row read under the space's lock, so a checkout that committed meanwhile is what this one changes.
 */
async function quoteFor(tx: Executor, space: SpaceRow, body: CheckoutPreviewBody, now: Date): Promise<Change> {
  const row = await subscriptionOf(tx, space.id, true);
  if (row?.status === 'past_due')
    throw new ApiError(409, 'past_due', 'The last renewal is unpaid: it is charged again before any plan change.');
  const current = currentOf(space, row);
  const q = quote(current, body, now);
  if (q.effect === 'none') {
    const interval = space.plan === 'free' ? '' : `, ${current.interval === 'year' ? 'yearly' : 'monthly'}`;
    throw new ApiError(409, 'no_change', `This space is already on ${planTerms[space.plan].label}${interval}.`);
  }
  if (q.effect === 'scheduled' && plans.indexOf(body.plan) < plans.indexOf(space.plan))
    await refuseOverPlan(tx, space, body.plan, now);
  return q;
}

function previewOf(q: Change, body: CheckoutPreviewBody, now: Date): CheckoutPreview {
  const iso = (p: { start: Date; end: Date } | null) =>
    p ? { start: p.start.toISOString(), end: p.end.toISOString() } : null;
  if (q.effect === 'scheduled')
    return {
      effect: 'scheduled',
      plan: body.plan,
      interval: body.interval,
      lines: [],
      totalCents: 0,
      period: iso(q.period),
      effectiveAt: q.at.toISOString(),
      testMode: true,
    };
  return {
    effect: q.effect,
    plan: body.plan,
    interval: body.interval,
    lines: q.lines,
    totalCents: q.totalCents,
    period: iso(q.period),
    effectiveAt: now.toISOString(),
    testMode: true,
  };
}

/** What the checkout would charge now (lines in cents, proration included) and the period it buys. */
export async function previewCheckout(sc: SpaceCaller, body: CheckoutPreviewBody): Promise<CheckoutPreview> {
  const now = sc.deps.now();
  return sc.deps.db.transaction(async (tx) => {
    const space = await lockedSpace(tx, sc.space.id);
    return previewOf(await quoteFor(tx, space, body, now), body, now);
  });
}

/** The request's fingerprint under its key: never the card number (only its last four and expiry). */
function requestHash(body: CheckoutBody): string {
  const card = body.card
    ? { last4: body.card.number.replace(/\D/g, '').slice(-4), exp: `${body.card.expMonth}/${body.card.expYear}` }
    : null;
  return createHash('sha256')
    .update(JSON.stringify({ plan: body.plan, interval: body.interval, card }))
    .digest('hex');
}

/** Changes the plan: pays now (from Free, an upgrade) or schedules the change for the period's end. */
export async function checkout(sc: SpaceCaller, body: CheckoutBody, idempotencyKey: string): Promise<CheckoutResult> {
  const now = sc.deps.now();
  const spaceId = sc.space.id;
  const hash = requestHash(body);
  return sc.deps.db.transaction(async (tx) => {
    const space = await lockedSpace(tx, spaceId);
    const [seen] = await tx
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.spaceId, spaceId), eq(idempotencyKeys.key, idempotencyKey)));
    if (seen) {
      if (seen.requestHash !== hash)
        throw new ApiError(
          422,
          'idempotency_key_reused',
          'This Idempotency-Key was used for another checkout; use a new key.',
        );
      return seen.answer as CheckoutResult;
    }
    const q = await quoteFor(tx, space, body, now);
    let result: CheckoutResult;
    if (q.effect === 'scheduled') {
      const row = await subscriptionOf(tx, spaceId, true);
      if (row?.periodEnd) await scheduleChange(tx, sc.actor, space, row, body, now);
      else await dropUnboughtPlan(tx, sc, space, now);
      result = { subscription: await subscriptionView(tx, spaceId, now), invoice: null };
    } else {
      result = await pay(sc, tx, space, body, q, idempotencyKey, now);
    }
    await tx
      .insert(idempotencyKeys)
      .values({ spaceId, key: idempotencyKey, requestHash: hash, status: 200, answer: result, createdAt: now });
    return result;
  });
}

/** A paid plan that was given, not bought (no period to wait for), falls back to Free at once (audited). */
async function dropUnboughtPlan(tx: Executor, sc: SpaceCaller, space: SpaceRow, now: Date): Promise<void> {
  await setPlan(tx, space.id, 'free', now);
  await recordActivity(tx, sc.actor, {
    spaceId: space.id,
    action: 'subscription.change',
    objectType: 'subscription',
    objectId: space.id,
    change: { plan: { from: space.plan, to: 'free' } },
  });
}

/** Charges the quote's total through the provider; only a successful payment changes anything. */
async function pay(
  sc: SpaceCaller,
  tx: Executor,
  space: SpaceRow,
  body: CheckoutBody,
  q: Exclude<Change, { effect: 'scheduled' }>,
  idempotencyKey: string,
  now: Date,
): Promise<CheckoutResult> {
  const spaceId = space.id;
  const provider = sc.deps.billing;
  const row = await subscriptionOf(tx, spaceId, true);
  let stored: (PaymentMethodRef & { id: string }) | undefined;
  if (!body.card && row?.paymentMethodId) {
    const [pm] = await tx.select().from(paymentMethods).where(eq(paymentMethods.id, row.paymentMethodId));
    if (pm) stored = { id: pm.id, token: pm.providerToken, brand: pm.brand, last4: pm.last4, behaviour: pm.behaviour };
  }
  if (!body.card && !stored)
    throw new ApiError(400, 'validation', 'Enter a card.', { fields: { card: 'Enter a card.' } });
  const label = planTerms[body.plan].label;
  const charge = {
    spaceId,
    amountCents: Math.max(0, q.totalCents),
    description: `Spaceguard ${label} (${body.interval === 'year' ? 'yearly' : 'monthly'})`,
    idempotencyKey: `checkout:${spaceId}:${idempotencyKey}`,
    offSession: false,
  };
  if (body.card) {
    const exp = new Date(Date.UTC(body.card.expYear, body.card.expMonth, 1));
    if (exp <= now) {
      const message = 'This card has expired.';
      throw new ApiError(400, 'validation', message, { fields: { 'card.expYear': message } });
    }
  }
  let session: Awaited<ReturnType<typeof provider.createCheckout>>;
  try {
    session = await provider.createCheckout(
      charge,
      body.card ? { card: body.card satisfies CardInput } : { paymentMethod: stored as PaymentMethodRef },
    );
  } catch (error) {
    if (error instanceof CardRejected)
      throw new ApiError(400, 'validation', error.message, { fields: { [`card.${error.field}`]: error.message } });
    throw error;
  }
  const outcome = await provider.confirmPayment(session, charge);
  if (outcome.status === 'failed') throw new ApiError(402, outcome.code, outcome.message);
  try {
    return await record(sc, tx, space, body, q, row, stored, session, outcome.paymentId, charge.amountCents, now);
  } catch (error) {
    // The money was taken but nothing is kept: give it back before the transaction rolls back.
    await provider.refund({
      paymentId: outcome.paymentId,
      amountCents: charge.amountCents,
      idempotencyKey: `refund:${outcome.paymentId}`,
    });
    throw error;
  }
}

/** Stores what a successful payment bought: the card's token, the subscription, the plan, the invoice, the audit. */
async function record(
  sc: SpaceCaller,
  tx: Executor,
  space: SpaceRow,
  body: CheckoutBody,
  q: Exclude<Change, { effect: 'scheduled' }>,
  row: SubscriptionRow | undefined,
  stored: (PaymentMethodRef & { id: string }) | undefined,
  session: Checkout,
  paymentId: string,
  amountCents: number,
  now: Date,
): Promise<CheckoutResult> {
  const spaceId = space.id;

  let paymentMethodId = stored?.id;
  if (!stored) {
    const pm = session.paymentMethod;
    const [inserted] = await tx
      .insert(paymentMethods)
      .values({
        spaceId,
        providerToken: pm.token,
        brand: pm.brand,
        last4: pm.last4,
        behaviour: pm.behaviour,
        createdAt: now,
      })
      .returning({ id: paymentMethods.id });
    paymentMethodId = inserted?.id;
  }
  const values = {
    plan: body.plan,
    interval: body.interval,
    status: 'active' as const,
    periodStart: q.period.start,
    periodEnd: q.period.end,
    scheduledPlan: null,
    scheduledInterval: null,
    paymentMethodId: paymentMethodId ?? null,
    failedAt: null,
    retries: 0,
    updatedAt: now,
  };
  if (row) await tx.update(subscriptions).set(values).where(eq(subscriptions.spaceId, spaceId));
  else await tx.insert(subscriptions).values({ spaceId, ...values, createdAt: now });
  await setPlan(tx, spaceId, body.plan, now);
  const number = await nextInvoiceNumber(tx, spaceId);
  const [invoice] = await tx
    .insert(invoices)
    .values({
      spaceId,
      number,
      kind: q.effect,
      plan: body.plan,
      interval: body.interval,
      periodStart: q.period.start,
      periodEnd: q.period.end,
      lines: q.lines,
      totalCents: amountCents,
      status: 'paid',
      providerPaymentId: paymentId,
      cardBrand: session.paymentMethod.brand,
      cardLast4: session.paymentMethod.last4,
      createdAt: now,
    })
    .returning();
  if (!invoice) throw new Error('the invoice was not stored');
  await recordActivity(tx, sc.actor, {
    spaceId,
    action: 'subscription.change',
    objectType: 'subscription',
    objectId: spaceId,
    change: {
      plan: { from: space.plan, to: body.plan },
      interval: { from: row?.interval ?? null, to: body.interval },
      period: { start: q.period.start.toISOString(), end: q.period.end.toISOString() },
    },
  });
  await recordActivity(tx, sc.actor, {
    spaceId,
    action: 'payment.pay',
    objectType: 'invoice',
    objectId: invoice.id,
    change: {
      number: invoiceLabel(number),
      amountCents: invoice.totalCents,
      card: `${invoice.cardBrand} ${invoice.cardLast4}`,
    },
  });
  return { subscription: await subscriptionView(tx, spaceId, now), invoice: paymentView(invoice) };
}
