/**
 * What a plan change costs, as lines in cents (pure: the clock and the current subscription come in). From Free a
 * paid plan starts a new period now at the full price. Between paid plans an upgrade (a higher plan, or monthly to
 * yearly) takes effect now: on the same interval the period stays and the difference for its unused part is charged
 * (a credit line for the old plan, a charge line for the new); monthly to yearly starts a new yearly period now, less
 * the credit for the unused month. A lower plan, Free, or yearly to monthly is scheduled for the period's end.
 */

import { priceCents } from '../../../contract/billing.ts';
import type { BillingInterval } from '../../../contract/constants/billing.ts';
import { type Plan, plans, planTerms } from '../../../contract/constants/plans.ts';
import type { InvoiceLine } from '../../../contract/subscription.ts';

export type Current = { plan: Plan; interval: BillingInterval; periodStart: Date | null; periodEnd: Date | null };
export type Target = { plan: Plan; interval: BillingInterval };

export type Quote =
  | { effect: 'none' }
  | { effect: 'subscribe' | 'upgrade'; lines: InvoiceLine[]; totalCents: number; period: { start: Date; end: Date } }
  | { effect: 'scheduled'; at: Date; period: { start: Date; end: Date } | null };

/** `at` plus one interval in UTC; a month from the 31st ends on the last day of a shorter month. */
export function addInterval(at: Date, interval: BillingInterval): Date {
  const months = interval === 'year' ? 12 : 1;
  const d = new Date(at.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const intervalWord = (interval: BillingInterval) => (interval === 'year' ? 'yearly' : 'monthly');

function line(
  kind: 'charge' | 'credit',
  what: string,
  plan: Plan,
  interval: BillingInterval,
  start: Date,
  end: Date,
  amountCents: number,
): InvoiceLine {
  const name = `${planTerms[plan].label}, ${intervalWord(interval)}`;
  const description = `${what} ${name}, ${day(start)} to ${day(end)}`;
  return {
    kind,
    description,
    plan,
    interval,
    period: { start: start.toISOString(), end: end.toISOString() },
    amountCents,
  };
}

/** The full-price line of one period of a plan. */
export function periodLine(plan: Plan, interval: BillingInterval, start: Date, end: Date): InvoiceLine {
  return line('charge', 'Subscription:', plan, interval, start, end, priceCents(plan, interval));
}

const rank = (plan: Plan) => plans.indexOf(plan);

/** What moving from `current` to `target` at `now` does, and costs. */
export function quote(current: Current, target: Target, now: Date): Quote {
  if (current.plan === target.plan && current.interval === target.interval) return { effect: 'none' };
  const paid = current.plan !== 'free' && current.periodStart !== null && current.periodEnd !== null;
  if (!paid) {
    // A paid plan without a period (given, not bought: the demo's) falls back to Free at once.
    if (target.plan === 'free')
      return current.plan === 'free' ? { effect: 'none' } : { effect: 'scheduled', at: now, period: null };
    const end = addInterval(now, target.interval);
    const lines = [periodLine(target.plan, target.interval, now, end)];
    return { effect: 'subscribe', lines, totalCents: sum(lines), period: { start: now, end } };
  }
  const start = current.periodStart as Date;
  const end = current.periodEnd as Date;
  const lower = rank(target.plan) < rank(current.plan);
  const shorter = current.interval === 'year' && target.interval === 'month';
  if (target.plan === 'free' || lower || shorter) {
    const period = target.plan === 'free' ? null : { start: end, end: addInterval(end, target.interval) };
    return { effect: 'scheduled', at: end, period };
  }
  // An upgrade: a higher plan, or monthly to yearly.
  const total = end.getTime() - start.getTime();
  const remaining = Math.max(0, Math.min(total, end.getTime() - now.getTime()));
  const unused = (cents: number) => Math.round((cents * remaining) / total);
  const credit = line(
    'credit',
    'Unused time on',
    current.plan,
    current.interval,
    now,
    end,
    -unused(priceCents(current.plan, current.interval)),
  );
  if (current.interval === target.interval) {
    const charge = line(
      'charge',
      'Remaining time on',
      target.plan,
      target.interval,
      now,
      end,
      unused(priceCents(target.plan, target.interval)),
    );
    const lines = [credit, charge];
    return { effect: 'upgrade', lines, totalCents: sum(lines), period: { start, end } };
  }
  const newEnd = addInterval(now, target.interval);
  const lines = [credit, periodLine(target.plan, target.interval, now, newEnd)];
  return { effect: 'upgrade', lines, totalCents: sum(lines), period: { start: now, end: newEnd } };
}

function sum(lines: InvoiceLine[]): number {
  return lines.reduce((total, l) => total + l.amountCents, 0);
}
