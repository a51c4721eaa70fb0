/** Subscriptions and billing: the bodies and answers of the owner's subscription and payment routes. */
import { z } from 'zod';
import { Id, SpaceParams, Timestamp } from './common.ts';
import {
  billingIntervals,
  invoiceKinds,
  invoiceStatuses,
  subscriptionStatuses,
  testModeMark,
} from './constants/billing.ts';
import { plans } from './constants/plans.ts';

export const PlanName = z.enum(plans);
export const BillingInterval = z.enum(billingIntervals);

/** A billing period: from `start` (inclusive) to `end` (exclusive). */
export const Period = z.object({ start: Timestamp, end: Timestamp }).meta({ id: 'BillingPeriod' });

/** One use against its limit (`null`: the plan sets none). */
export const UsageItem = z.object({ used: z.number(), limit: z.number().nullable() });

/** The space's use of each limited thing, against its current plan. */
export const Usage = z
  .object({
    firewalls: UsageItem,
    members: UsageItem,
    eventsThisMonth: UsageItem,
    retentionDays: UsageItem,
    dashboards: UsageItem,
    alertRules: UsageItem,
    assets: UsageItem,
  })
  .meta({ id: 'PlanUsage' });
export type Usage = z.infer<typeof Usage>;

/** A change that takes effect at the period's end (a downgrade, or a yearly plan turning monthly). */
export const ScheduledChange = z.object({ plan: PlanName, interval: BillingInterval, at: Timestamp });

export const Subscription = z
  .object({
    plan: PlanName,
    interval: BillingInterval,
    status: z.enum(subscriptionStatuses),
    /** The paid period; null on Free. */
    period: Period.nullable(),
    scheduledChange: ScheduledChange.optional(),
    /** While past due: when the failed renewal is charged again, and when the space falls back to Free. */
    pastDue: z.object({ since: Timestamp, nextRetry: Timestamp.nullable(), downgradeAt: Timestamp }).optional(),
    paymentMethod: z.object({ brand: z.string(), last4: z.string() }).nullable(),
    usage: Usage,
    testMode: z.literal(true),
    testModeMark: z.literal(testModeMark),
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof Subscription>;

const cardFields = {
  number: z.string().max(30),
  expMonth: z.number().int().min(1).max(12),
  expYear: z.number().int().min(2000).max(2200),
  cvc: z.string().regex(/^[0-9]{3,4}$/, 'Enter the 3 or 4 digits on the card.'),
};
/** A card as typed; the server checks it with Luhn and keeps only its brand and last four. */
export const Card = z.strictObject(cardFields);

export const CheckoutPreviewBody = z.strictObject({ plan: PlanName, interval: BillingInterval }).meta({
  id: 'CheckoutPreviewBody',
});
export type CheckoutPreviewBody = z.infer<typeof CheckoutPreviewBody>;

export const CheckoutBody = z
  .strictObject({ plan: PlanName, interval: BillingInterval, card: Card.optional() })
  .meta({ id: 'CheckoutBody' });
export type CheckoutBody = z.infer<typeof CheckoutBody>;

/** One line of an invoice, in cents: a charge (positive) or a credit for the unused part of a plan (negative). */
export const InvoiceLine = z.object({
  kind: z.enum(['charge', 'credit']),
  description: z.string(),
  plan: PlanName,
  interval: BillingInterval,
  period: Period,
  amountCents: z.number().int(),
});
export type InvoiceLine = z.infer<typeof InvoiceLine>;

/** What a checkout would do: pay now (`subscribe`, `upgrade`), or schedule a change at the period's end. */
export const CheckoutPreview = z
  .object({
    effect: z.enum(['subscribe', 'upgrade', 'scheduled']),
    plan: PlanName,
    interval: BillingInterval,
    lines: z.array(InvoiceLine),
    totalCents: z.number().int(),
    /** The period the plan runs in once paid; for a scheduled change, the period starting at the change. */
    period: Period.nullable(),
    /** When a scheduled change takes effect. */
    effectiveAt: Timestamp,
    testMode: z.literal(true),
  })
  .meta({ id: 'CheckoutPreview' });
export type CheckoutPreview = z.infer<typeof CheckoutPreview>;

export const Payment = z
  .object({
    id: Id,
    number: z.string(),
    date: Timestamp,
    kind: z.enum(invoiceKinds),
    plan: PlanName,
    interval: BillingInterval,
    period: Period,
    lines: z.array(InvoiceLine),
    amountCents: z.number().int(),
    status: z.enum(invoiceStatuses),
    failureMessage: z.string().nullable(),
    card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
    refundedAt: Timestamp.nullable(),
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof Payment>;

export const CheckoutResult = z
  .object({ subscription: Subscription, invoice: Payment.nullable() })
  .meta({ id: 'CheckoutResult' });
export type CheckoutResult = z.infer<typeof CheckoutResult>;

export const PaymentList = z.object({ items: z.array(Payment), testMode: z.literal(true) }).meta({ id: 'PaymentList' });
export type PaymentList = z.infer<typeof PaymentList>;

export const PaymentParams = SpaceParams.extend({ id: Id });
