/**
 * The one place that decides every plan limit: what each plan allows comes from
 * contract/constants/plans.ts, the limit names and labels from contract/constants/limits.ts. Every API that creates a
 * limited thing (firewall, invitation or member, dashboard, alert rule, asset) or sets a limited value (retention)
 * asks `checkLimit`, which refuses the same way everywhere: 402
 * `{ error: { code: 'plan_limit', message, limit, plan, upgradeTo } }`. `usageOf` reads the same counts for the
 * subscription's usage and `overPlan` what a lower plan would refuse. Ingest refuses events past `monthlyEventQuota`
 * itself (services/ingest/store.ts), on the same `event_usage` row of the month (`monthOf`) that `usageOf` reads. No
 * other module reads a plan's limits from contract/constants/plans.ts: they ask this one.
 *
 * Messages: a count "Firewalls on Free: 1 of 1 used; Pro allows 5" ("…; Business allows unlimited", or "…; no plan
 * allows more" on the top plan); a value "Retention on Free: 30 days asked; Free allows 7; Pro allows 30".
 *
 * Callers lock the space row first (`lockSpace`) in the transaction that writes, so two creates cannot both pass.
 */

import { and, count, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { type LimitName, limitNames, limits } from '../../../contract/constants/limits.ts';
import { type Plan, planTerms } from '../../../contract/constants/plans.ts';
import { allowance } from '../../../contract/limits.ts';
import { nextPlan } from '../../../contract/plans.ts';
import type { Executor } from '../../db/database.ts';
import { alertRules } from '../../db/schema/alerts.ts';
import { dashboards } from '../../db/schema/dashboards.ts';
import { firewalls } from '../../db/schema/firewalls.ts';
import { invitations } from '../../db/schema/invitations.ts';
import { memberships } from '../../db/schema/memberships.ts';
import type { SpaceRow } from '../../db/schema/spaces.ts';
import { eventUsage } from '../../db/schema/usage.ts';
import { assets } from '../../db/schema/vulns.ts';
import { ApiError } from '../../errors.ts';

/** 'YYYY-MM' of a date in UTC: the key of the monthly event usage. */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** The first moment of the next UTC month, when the monthly event quota starts again. */
export function startOfNextMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** What `plan` allows of `name`; null when unlimited. */
export function planAllows(plan: Plan, name: LimitName): number | null {
  return allowance(planTerms[plan], name);
}

/** The events a space on `plan` may store each month: every plan caps it. */
export function monthlyEventQuota(plan: Plan): number {
  return planTerms[plan].eventsPerMonth;
}

/** The retention a new space starts with: the most the Free plan keeps. */
export const startingRetentionDays = planTerms.free.retentionDays;

/** One limit of a space: what is used (for retention, the days set) and what its plan allows (null: unlimited). */
export interface LimitUsage {
  readonly used: number;
  readonly limit: number | null;
}

/** What a limit check needs of the space. */
export type LimitedSpace = Pick<SpaceRow, 'id' | 'plan' | 'retentionDays'>;

/** How much more a create adds (a count), or the value a change asks for (retention days). */
export type LimitAsk = { readonly adding?: number } | { readonly value: number };

async function counted(query: Promise<{ n: number }[]>): Promise<number> {
  const [row] = await query;
  return Number(row?.n ?? 0);
}

/** What the space uses of one limit, counting exactly what its check counts. */
async function usedOf(tx: Executor, space: LimitedSpace, name: LimitName, now: Date): Promise<number> {
  switch (name) {
    case 'firewalls':
      return counted(tx.select({ n: count() }).from(firewalls).where(eq(firewalls.spaceId, space.id)));
    case 'members': {
      const members = await counted(
        tx.select({ n: count() }).from(memberships).where(eq(memberships.spaceId, space.id)),
      );
      const pending = await counted(
        tx
          .select({ n: count() })
          .from(invitations)
          .where(
            and(eq(invitations.spaceId, space.id), isNull(invitations.acceptedAt), gt(invitations.expiresAt, now)),
          ),
      );
      return members + pending;
    }
    case 'eventsThisMonth': {
      const [row] = await tx
        .select({ accepted: eventUsage.accepted })
        .from(eventUsage)
        .where(and(eq(eventUsage.spaceId, space.id), eq(eventUsage.month, monthOf(now))));
      return row?.accepted ?? 0;
    }
    case 'retentionDays':
      return space.retentionDays;
    case 'dashboards':
      return counted(tx.select({ n: count() }).from(dashboards).where(eq(dashboards.spaceId, space.id)));
    case 'alertRules':
      return counted(tx.select({ n: count() }).from(alertRules).where(eq(alertRules.spaceId, space.id)));
    case 'assets':
      return counted(tx.select({ n: count() }).from(assets).where(eq(assets.spaceId, space.id)));
  }
}

/** Every limit of the space: what it uses and what its plan allows (null when unlimited). */
export async function usageOf(tx: Executor, space: LimitedSpace, now: Date): Promise<Record<LimitName, LimitUsage>> {
  const usage = {} as Record<LimitName, LimitUsage>;
  for (const name of limitNames) {
    usage[name] = { used: await usedOf(tx, space, name, now), limit: planAllows(space.plan, name) };
  }
  return usage;
}

/** The cheapest plan above `plan` that allows `amount` of `name`, or null when none does. */
export function liftingPlan(plan: Plan, name: LimitName, amount: number): Plan | null {
  for (let next = nextPlan(plan); next; next = nextPlan(next)) {
    const allowed = planAllows(next, name);
    if (allowed === null || allowed >= amount) return next;
  }
  return null;
}

const shown = (n: number | null): string => (n === null ? 'unlimited' : String(n));

/** The 402 past a limit, the same shape everywhere (see the module's comment for the message). */
export function planLimitError(
  plan: Plan,
  name: LimitName,
  ask: { readonly used: number; readonly adding: number } | { readonly value: number },
): ApiError {
  const { label } = limits[name];
  const terms = planTerms[plan];
  const allowed = planAllows(plan, name);
  let message: string;
  let upgradeTo: Plan | null;
  if ('value' in ask) {
    upgradeTo = liftingPlan(plan, name, ask.value);
    const lift = upgradeTo
      ? `${planTerms[upgradeTo].label} allows ${shown(planAllows(upgradeTo, name))}`
      : 'no plan allows more';
    message = `${label} on ${terms.label}: ${shown(ask.value)} days asked; ${terms.label} allows ${shown(allowed)}; ${lift}`;
  } else {
    upgradeTo = liftingPlan(plan, name, ask.used + ask.adding);
    const lift = upgradeTo
      ? `${planTerms[upgradeTo].label} allows ${shown(planAllows(upgradeTo, name))}`
      : 'no plan allows more';
    message = `${label} on ${terms.label}: ${shown(ask.used)} of ${shown(allowed)} used; ${lift}`;
  }
  const fields: Record<string, string> | undefined =
    name === 'retentionDays' ? { retentionDays: message } : name === 'members' ? { email: message } : undefined;
  return new ApiError(402, 'plan_limit', message, {
    ...(fields ? { fields } : {}),
    extra: { limit: name, plan, upgradeTo },
  });
}

/** Refuses with 402 `plan_limit` when `value` (retention days) is more than `plan` allows; nothing to read. */
export function checkValue(plan: Plan, name: LimitName, value: number | undefined): void {
  if (value === undefined) return;
  const allowed = planAllows(plan, name);
  if (allowed !== null && value > allowed) throw planLimitError(plan, name, { value });
}

/**
 * Refuses with 402 `plan_limit` when `adding` more (1 by default) of `name` would pass what the space's plan allows,
 * or when the `value` asked (retention days) is more than it allows. Call it in the writing transaction after
 * `lockSpace`, so concurrent creates cannot both pass.
 */
export async function checkLimit(
  tx: Executor,
  space: LimitedSpace,
  name: LimitName,
  ask: LimitAsk = {},
  now: Date,
): Promise<void> {
  if ('value' in ask) return checkValue(space.plan, name, ask.value);
  const allowed = planAllows(space.plan, name);
  if (allowed === null) return;
  const adding = ask.adding ?? 1;
  const used = await usedOf(tx, space, name, now);
  if (used + adding <= allowed) return;
  throw planLimitError(space.plan, name, { used, adding });
}

/** The limited things a space keeps as rows of its own, which can be over the plan after a downgrade. */
export type LimitedObject = 'firewalls' | 'dashboards' | 'alertRules' | 'assets';

const objectTables = { firewalls, dashboards, alertRules, assets } as const;

/**
 * Refuses with 402 `plan_limit` a change to an object that is past the plan's limit: after a downgrade (or a
 * renewal that fell back to Free) nothing is deleted, but only the oldest objects up to the limit stay writable; the
 * others are read-only (deleting one is always allowed) until the space is back within the plan or upgrades.
 */
export async function checkWritable(tx: Executor, space: LimitedSpace, name: LimitedObject, id: string): Promise<void> {
  const allowed = planAllows(space.plan, name);
  if (allowed === null) return;
  const table = objectTables[name];
  const [row] = await tx
    .select({ createdAt: table.createdAt })
    .from(table)
    .where(and(eq(table.spaceId, space.id), eq(table.id, id)));
  if (!row) return;
  // Its place among the space's objects, oldest first (ties by id): within the limit it stays writable.
  const older = await counted(
    tx
      .select({ n: count() })
      .from(table)
      .where(
        and(
          eq(table.spaceId, space.id),
          or(
            sql`${table.createdAt} < ${row.createdAt}`,
            and(eq(table.createdAt, row.createdAt), sql`${table.id} < ${id}`),
          ),
        ),
      ),
  );
  if (older < allowed) return;
  const used = await counted(tx.select({ n: count() }).from(table).where(eq(table.spaceId, space.id)));
  const refusal = planLimitError(space.plan, name, { used, adding: 0 });
  const { label } = limits[name];
  const message = `${refusal.message}. This one is read-only until the space is back within the plan: delete ${used - allowed} of the ${label.toLowerCase()} or change the plan.`;
  throw new ApiError(402, 'plan_limit', message, { extra: refusal.extra ?? {} });
}

/** What to remove first of each limited thing a lower plan would refuse: the verb of its message. */
const removal: Readonly<Partial<Record<LimitName, 'Remove' | 'Delete'>>> = {
  firewalls: 'Remove',
  members: 'Remove',
  dashboards: 'Delete',
  alertRules: 'Delete',
  assets: 'Delete',
};

/**
 * What the space uses beyond what `plan` allows, by limit name, each saying what to remove first ("Delete 2 of 5
 * assets: the Free plan allows 3."); events this month cannot be removed, so they are not named. Empty when the
 * space fits the plan.
 */
export async function overPlan(
  tx: Executor,
  space: LimitedSpace,
  plan: Plan,
  now: Date,
): Promise<Record<string, string>> {
  const usage = await usageOf(tx, space, now);
  const terms = planTerms[plan];
  const over: Record<string, string> = {};
  for (const name of limitNames) {
    const verb = removal[name];
    const limit = planAllows(plan, name);
    const { used } = usage[name];
    if (verb && limit !== null && used > limit)
      over[name] =
        `${verb} ${used - limit} of ${used} ${limits[name].label.toLowerCase()}: the ${terms.label} plan allows ${limit}.`;
  }
  const keeps = terms.retentionDays;
  if (space.retentionDays > keeps)
    over.retentionDays = `Lower the retention from ${space.retentionDays} to ${keeps} days: the ${terms.label} plan keeps ${keeps}.`;
  return over;
}
