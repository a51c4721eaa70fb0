/** The one plan table (PRODUCT.md §4): plain values, no zod, so schemas, server and islands all read it. */

/** Plans, cheapest first. */
export const plans = ['free', 'pro', 'business'] as const;
export type Plan = (typeof plans)[number];

/** A limit that no plan caps is `null` (Business dashboards and alert rules). */
export type PlanLimit = number | null;

export interface PlanTerms {
  readonly label: string;
  readonly firewalls: number;
  readonly members: number;
  readonly eventsPerMonth: number;
  readonly retentionDays: number;
  readonly dashboards: PlanLimit;
  readonly alertRules: PlanLimit;
  readonly assets: number;
  readonly priceMonthlyUsd: number;
}

/** What each plan allows and costs. */
export const planTerms: Readonly<Record<Plan, PlanTerms>> = {
  free: {
    label: 'Free',
    firewalls: 1,
    members: 3,
    eventsPerMonth: 100_000,
    retentionDays: 7,
    dashboards: 3,
    alertRules: 5,
    assets: 5,
    priceMonthlyUsd: 0,
  },
  pro: {
    label: 'Pro',
    firewalls: 5,
    members: 10,
    eventsPerMonth: 5_000_000,
    retentionDays: 30,
    dashboards: 20,
    alertRules: 50,
    assets: 50,
    priceMonthlyUsd: 49,
  },
  business: {
    label: 'Business',
    firewalls: 50,
    members: 100,
    eventsPerMonth: 100_000_000,
    retentionDays: 365,
    dashboards: null,
    alertRules: null,
    assets: 1_000,
    priceMonthlyUsd: 299,
  },
};

/** The next plan up, which lifts a limit of this one; null for the top plan. */
export function nextPlan(plan: Plan): Plan | null {
  return plans[plans.indexOf(plan) + 1] ?? null;
}

/** Turns any value into a plan, or null when it names none. */
export function parsePlan(value: unknown): Plan | null {
  return plans.find((p) => p === value) ?? null;
}

/** The hint under a retention field, e.g. "The Free plan keeps data up to 7 days (Pro 30, Business 365)." */
export function retentionHint(plan: Plan): string {
  const others = plans
    .filter((p) => p !== plan)
    .map((p) => `${planTerms[p].label} ${planTerms[p].retentionDays}`)
    .join(', ');
  return `The ${planTerms[plan].label} plan keeps data up to ${planTerms[plan].retentionDays} days (${others}).`;
}
