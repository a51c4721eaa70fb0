/** Subscriptions and billing: plain values, no zod, so schemas, server and islands all read them. */

/** Billing intervals: a month, or a year at ten months' price (two months free). */
export const billingIntervals = ['month', 'year'] as const;
export type BillingInterval = (typeof billingIntervals)[number];

/** Months charged for a yearly period. */
export const yearlyMonthsCharged = 10;

/** The mark on every billing page and receipt while the bundled local provider takes payments. */
export const testModeMark = 'Test mode: no real charge';

/** Who sells, as printed on receipts. */
export const seller = {
  name: 'Spaceguard',
  address: ['Spaceguard Ltd.', '1 Example Street', '10115 Berlin', 'Germany'],
  email: 'billing@spaceguard.example',
} as const;

/** What a card does with the local test provider (kept with its payment-method token, never the number). */
export const cardBehaviours = ['success', 'declined', 'insufficient_funds', 'renewal_declined'] as const;
export type CardBehaviour = (typeof cardBehaviours)[number];

/** The test cards the local provider accepts, named as they behave. */
export const testCards = {
  success: { number: '4242424242424242', label: 'Succeeds' },
  declined: { number: '4000000000000002', label: 'Declined' },
  insufficient_funds: { number: '4000000000009995', label: 'Insufficient funds' },
  renewal_declined: { number: '4000000000000341', label: 'Succeeds now; renewals are declined' },
} as const satisfies Record<CardBehaviour, { number: string; label: string }>;

/** Subscription states: paying, or a renewal failed and is retried. */
export const subscriptionStatuses = ['active', 'past_due'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

export const invoiceStatuses = ['paid', 'failed', 'refunded'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];

/** Why an invoice was raised: a new period bought now, a mid-period upgrade, a renewal. */
export const invoiceKinds = ['subscribe', 'upgrade', 'renewal'] as const;
export type InvoiceKind = (typeof invoiceKinds)[number];

/** Days after a failed renewal on which it is charged again, and the day the space falls back to Free. */
export const renewalRetryDays = [1, 3, 5] as const;
export const renewalGraceDays = 7;
