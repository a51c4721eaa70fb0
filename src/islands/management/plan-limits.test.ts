import type { Plan } from '../../../contract/spaces.ts';
import { planLimits } from '../../../contract/spaces.ts';
import { PLAN_RETENTION, retentionHint } from './plan-limits.ts';

describe('plan retention', () => {
  test.each<{ plan: Plan; expected: string }>([
    { plan: 'free', expected: 'The Free plan keeps data up to 7 days (Pro 30, Business 365).' },
    { plan: 'pro', expected: 'The Pro plan keeps data up to 30 days (Free 7, Business 365).' },
    { plan: 'business', expected: 'The Business plan keeps data up to 365 days (Free 7, Pro 30).' },
  ])('$plan: $expected', ({ plan, expected }) => {
    expect(retentionHint(plan)).toBe(expected);
    // The copy never drifts from the contract the API enforces.
    expect(PLAN_RETENTION[plan].retentionDays).toBe(planLimits[plan].retentionDays);
  });
});
