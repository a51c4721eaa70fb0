/** Prices and invoices as the console computes and writes them. No zod, for the islands too. */
import { type BillingInterval, yearlyMonthsCharged } from './constants/billing.ts';
import { type Plan, planTerms } from './constants/plans.ts';

/** The price of one period of a plan, in cents. */
export function priceCents(plan: Plan, interval: BillingInterval): number {
  const monthly = planTerms[plan].priceMonthlyUsd * 100;
  return interval === 'year' ? monthly * yearlyMonthsCharged : monthly;
}

/** An invoice's number as shown: `INV-0001` (a per-space sequence, never reused). */
export function invoiceLabel(number: number): string {
  return `INV-${String(number).padStart(4, '0')}`;
}

/** Cents as dollars: `$49.00`, `-$12.34`. */
export function formatUsd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  return `${sign}$${(Math.abs(cents) / 100).toFixed(2)}`;
}
