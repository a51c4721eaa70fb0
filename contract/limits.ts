/** Reading the plan limits: a limit named in a value, what a plan allows of one. No zod, for the islands too. */
import { type LimitName, limitNames, limits } from './constants/limits.ts';
import type { PlanTerms } from './constants/plans.ts';

/** Turns any value into a limit name, or null when it names none. */
export function parseLimitName(value: unknown): LimitName | null {
  return limitNames.find((n) => n === value) ?? null;
}

/** What `plan` allows of `name`; null when unlimited. */
export function allowance(terms: PlanTerms, name: LimitName): number | null {
  return terms[limits[name].term];
}
