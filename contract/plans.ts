/** Reading the plan table: the next plan up, a plan named in a value, the retention hint. No zod, for the islands too. */
import { type Plan, plans, planTerms } from './constants/plans.ts';

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
