/**
 * The limits a plan sets (docs/product.md §4), by name: what a 402 `plan_limit` names, what `usage` reports, and where the
 * console manages each. Plain values, no zod, so the server and islands both read it.
 */
import type { PlanTerms } from './plans.ts';

export const limitNames = [
  'firewalls',
  'members',
  'eventsThisMonth',
  'retentionDays',
  'dashboards',
  'alertRules',
  'assets',
] as const;
export type LimitName = (typeof limitNames)[number];

export interface LimitInfo {
  /** How a message and the console name it: "Firewalls on Free: 1 of 1 used; Pro allows 5". */
  readonly label: string;
  /** The plan term (contract/constants/plans.ts) that sets it. */
  readonly term: keyof Pick<
    PlanTerms,
    'firewalls' | 'members' | 'eventsPerMonth' | 'retentionDays' | 'dashboards' | 'alertRules' | 'assets'
  >;
  /** The console page where the limited things are managed (a `buildPath` pattern). */
  readonly route: string;
}

export const limits: Readonly<Record<LimitName, LimitInfo>> = {
  firewalls: { label: 'Firewalls', term: 'firewalls', route: '/console/firewall/{space_id}' },
  members: {
    label: 'Members (pending invitations included)',
    term: 'members',
    route: '/console/management/member/{space_id}',
  },
  eventsThisMonth: { label: 'Events this month', term: 'eventsPerMonth', route: '/console/siem/{space_id}' },
  retentionDays: { label: 'Retention', term: 'retentionDays', route: '/console/management/general/{space_id}' },
  dashboards: { label: 'Dashboards', term: 'dashboards', route: '/console/dashboard/{space_id}' },
  alertRules: { label: 'Alert rules', term: 'alertRules', route: '/console/alert/{space_id}' },
  assets: { label: 'Assets', term: 'assets', route: '/console/vulnerabilities/assessment/{space_id}' },
};

/** The page that shows the plans and lifts a limit. */
export const upgradeRoute = '/console/subscription/upgrade/{space_id}';
