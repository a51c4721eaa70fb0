/** Retention each plan allows (PRODUCT.md §4), copied from contract/spaces.ts so the bundle carries no zod. */
import type { Plan } from '../../../contract/spaces.ts';

export const PLAN_RETENTION: Record<Plan, { readonly label: string; readonly retentionDays: number }> = {
  free: { label: 'Free', retentionDays: 7 },
  pro: { label: 'Pro', retentionDays: 30 },
  business: { label: 'Business', retentionDays: 365 },
};

/** The hint under the retention field, e.g. "The Free plan keeps data up to 7 days (Pro 30, Business 365)." */
export function retentionHint(plan: Plan): string {
  const others = (Object.keys(PLAN_RETENTION) as Plan[])
    .filter((p) => p !== plan)
    .map((p) => `${PLAN_RETENTION[p].label} ${PLAN_RETENTION[p].retentionDays}`)
    .join(', ');
  return `The ${PLAN_RETENTION[plan].label} plan keeps data up to ${PLAN_RETENTION[plan].retentionDays} days (${others}).`;
}
