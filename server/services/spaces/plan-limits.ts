/**
 * The plan limits a create or change path asks before it writes. What each plan allows is decided in
 * contract/constants/plans.ts (`planTerms`, `nextPlan`); this module only counts and refuses with 422, naming
 * the plan that lifts the limit. A new limited thing (firewalls, dashboards, alert rules) adds its check here.
 */

import { and, count, eq, gt, isNull } from 'drizzle-orm';
import { nextPlan, type Plan, type PlanTerms, planTerms } from '../../../contract/constants/plans.ts';
import type { Executor } from '../../db/database.ts';
import { alertRules } from '../../db/schema/alerts.ts';
import { firewalls } from '../../db/schema/firewalls.ts';
import { invitations } from '../../db/schema/invitations.ts';
import { memberships } from '../../db/schema/memberships.ts';
import type { SpaceRow } from '../../db/schema/spaces.ts';
import { assets } from '../../db/schema/vulns.ts';
import { ApiError } from '../../errors.ts';

/** The cheapest plan above `plan` whose terms pass `enough`, or null when none does. */
export function liftingPlan(plan: Plan, enough: (terms: PlanTerms) => boolean): Plan | null {
  for (let next = nextPlan(plan); next; next = nextPlan(next)) if (enough(planTerms[next])) return next;
  return null;
}

/** 422 when the retention exceeds what the plan allows, naming the plan that lifts it. */
export function checkRetention(plan: Plan, days: number | undefined): void {
  const terms = planTerms[plan];
  if (days === undefined || days <= terms.retentionDays) return;
  const lifting = liftingPlan(plan, (t) => t.retentionDays >= days);
  const lift = lifting ? `; the ${planTerms[lifting].label} plan keeps ${planTerms[lifting].retentionDays}` : '';
  const message = `The ${terms.label} plan keeps data up to ${terms.retentionDays} days${lift}.`;
  throw new ApiError(422, 'plan_limit_retention', message, { fields: { retentionDays: message } });
}

/** 422 naming the limit and the plan that lifts it, when `adding` more would exceed the space's member limit. */
export async function checkMemberLimit(tx: Executor, space: SpaceRow, adding: number, now: Date): Promise<void> {
  const [members] = await tx.select({ n: count() }).from(memberships).where(eq(memberships.spaceId, space.id));
  const [pending] = await tx
    .select({ n: count() })
    .from(invitations)
    .where(and(eq(invitations.spaceId, space.id), isNull(invitations.acceptedAt), gt(invitations.expiresAt, now)));
  const terms = planTerms[space.plan];
  if ((members?.n ?? 0) + (pending?.n ?? 0) + adding <= terms.members) return;
  const lifting = liftingPlan(space.plan, (t) => t.members > terms.members);
  const lift = lifting ? `; the ${planTerms[lifting].label} plan allows ${planTerms[lifting].members}` : '';
  throw new ApiError(
    422,
    'plan_limit_members',
    `The ${terms.label} plan allows ${terms.members} members (pending invitations included)${lift}.`,
    { fields: { email: `Member limit of the ${terms.label} plan reached (${terms.members}).` } },
  );
}

/** 422 naming the limit and the plan that lifts it, when one more firewall would exceed the space's plan. */
export async function checkFirewallLimit(tx: Executor, space: SpaceRow): Promise<void> {
  const [existing] = await tx.select({ n: count() }).from(firewalls).where(eq(firewalls.spaceId, space.id));
  const terms = planTerms[space.plan];
  if ((existing?.n ?? 0) < terms.firewalls) return;
  const lifting = liftingPlan(space.plan, (t) => t.firewalls > terms.firewalls);
  const lift = lifting ? `; the ${planTerms[lifting].label} plan allows ${planTerms[lifting].firewalls}` : '';
  const noun = terms.firewalls === 1 ? 'firewall' : 'firewalls';
  throw new ApiError(422, 'plan_limit_firewalls', `The ${terms.label} plan allows ${terms.firewalls} ${noun}${lift}.`);
}

/** 422 naming the limit and the plan that lifts it, when one more alert rule would exceed the space's plan. */
export async function checkAlertRuleLimit(tx: Executor, space: SpaceRow): Promise<void> {
  const terms = planTerms[space.plan];
  if (terms.alertRules === null) return;
  const [existing] = await tx.select({ n: count() }).from(alertRules).where(eq(alertRules.spaceId, space.id));
  if ((existing?.n ?? 0) < terms.alertRules) return;
  const limit = terms.alertRules;
  const lifting = liftingPlan(space.plan, (t) => t.alertRules === null || t.alertRules > limit);
  const allows = lifting ? (planTerms[lifting].alertRules ?? 'unlimited') : null;
  const lift = lifting ? `; the ${planTerms[lifting].label} plan allows ${allows}` : '';
  throw new ApiError(422, 'plan_limit_alert_rules', `The ${terms.label} plan allows ${limit} alert rules${lift}.`);
}

/** 422 naming the limit and the plan that lifts it, when one more asset would exceed the space's plan. */
export async function checkAssetLimit(tx: Executor, space: SpaceRow): Promise<void> {
  const terms = planTerms[space.plan];
  const [existing] = await tx.select({ n: count() }).from(assets).where(eq(assets.spaceId, space.id));
  if ((existing?.n ?? 0) < terms.assets) return;
  const lifting = liftingPlan(space.plan, (t) => t.assets > terms.assets);
  const lift = lifting
    ? `; the ${planTerms[lifting].label} plan allows ${planTerms[lifting].assets.toLocaleString('en')}`
    : '';
  throw new ApiError(422, 'plan_limit_assets', `The ${terms.label} plan allows ${terms.assets} assets${lift}.`);
}
