/** The one plan table (docs/product.md §4): plain values, no zod, so schemas, server and islands all read it. */

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
