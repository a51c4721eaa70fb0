import { type Plan, planTerms } from './constants/plans.ts';
import { nextPlan, parsePlan, retentionHint } from './plans.ts';

describe('plan retention', () => {
  test.each<{ plan: Plan; expected: string }>([
    { plan: 'free', expected: 'The Free plan keeps data up to 7 days (Pro 30, Business 365).' },
    { plan: 'pro', expected: 'The Pro plan keeps data up to 30 days (Free 7, Business 365).' },
    { plan: 'business', expected: 'The Business plan keeps data up to 365 days (Free 7, Pro 30).' },
  ])('$plan: $expected', ({ plan, expected }) => {
    expect(retentionHint(plan)).toBe(expected);
  });
});

test.each<{ plan: Plan; expected: Plan | null }>([
  { plan: 'free', expected: 'pro' },
  { plan: 'pro', expected: 'business' },
  { plan: 'business', expected: null },
])('the plan above $plan is $expected', ({ plan, expected }) => {
  expect(nextPlan(plan)).toBe(expected);
});

test.each([
  ['pro', 'pro'],
  ['gold', null],
  [3, null],
])('parsePlan(%s) is %s', (value, expected) => {
  expect(parsePlan(value)).toBe(expected);
});

test('every limit grows from plan to plan, as docs/product.md §4 has it', () => {
  const order: Plan[] = ['free', 'pro', 'business'];
  for (const key of ['firewalls', 'members', 'eventsPerMonth', 'retentionDays', 'assets', 'priceMonthlyUsd'] as const) {
    const values = order.map((p) => planTerms[p][key]);
    expect(
      [...values].sort((a, b) => a - b),
      key,
    ).toEqual(values);
  }
  expect(planTerms.business.dashboards).toBeNull();
  expect(planTerms.business.alertRules).toBeNull();
});
