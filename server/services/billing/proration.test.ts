import { describe, expect, test } from 'vitest';
import { addInterval, type Current, quote, type Target } from './proration.ts';

const d = (s: string) => new Date(s);
const pro = (interval: 'month' | 'year', start: string, end: string): Current => ({
  plan: 'pro',
  interval,
  periodStart: d(start),
  periodEnd: d(end),
});
const free: Current = { plan: 'free', interval: 'month', periodStart: null, periodEnd: null };

describe('quote', () => {
  const cases: {
    name: string;
    current: Current;
    target: Target;
    now: string;
    effect: string;
    amounts?: number[];
    period?: [string, string] | null;
  }[] = [
    {
      name: 'free → pro monthly: a new period from today at the full price',
      current: free,
      target: { plan: 'pro', interval: 'month' },
      now: '2026-11-10T12:00:00.000Z',
      effect: 'subscribe',
      amounts: [4900],
      period: ['2026-11-10T12:00:00.000Z', '2026-12-10T12:00:00.000Z'],
    },
    {
      name: 'free → business yearly: ten months',
      current: free,
      target: { plan: 'business', interval: 'year' },
      now: '2026-11-10T00:00:00.000Z',
      effect: 'subscribe',
      amounts: [299_000],
      period: ['2026-11-10T00:00:00.000Z', '2027-11-10T00:00:00.000Z'],
    },
    {
      name: 'pro → business mid-month: credit the unused pro, charge the unused business, same period',
      current: pro('month', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'),
      target: { plan: 'business', interval: 'month' },
      now: '2026-11-16T00:00:00.000Z',
      effect: 'upgrade',
      amounts: [-2450, 14950],
      period: ['2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
    },
    {
      name: 'pro monthly → pro yearly: a yearly period from now, less the unused month',
      current: pro('month', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'),
      target: { plan: 'pro', interval: 'year' },
      now: '2026-11-16T00:00:00.000Z',
      effect: 'upgrade',
      amounts: [-2450, 49_000],
      period: ['2026-11-16T00:00:00.000Z', '2027-11-16T00:00:00.000Z'],
    },
    {
      name: 'same plan yearly → monthly: at the period end',
      current: pro('year', '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'),
      target: { plan: 'pro', interval: 'month' },
      now: '2026-06-01T00:00:00.000Z',
      effect: 'scheduled',
      period: ['2027-01-01T00:00:00.000Z', '2027-02-01T00:00:00.000Z'],
    },
    {
      name: 'pro → free: scheduled at the period end',
      current: pro('month', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'),
      target: { plan: 'free', interval: 'month' },
      now: '2026-11-16T00:00:00.000Z',
      effect: 'scheduled',
      period: null,
    },
    {
      name: 'same plan and interval: nothing to do',
      current: pro('month', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'),
      target: { plan: 'pro', interval: 'month' },
      now: '2026-11-16T00:00:00.000Z',
      effect: 'none',
    },
  ];
  test.each(cases)('$name', ({ current, target, now, effect, amounts, period }) => {
    const q = quote(current, target, d(now));
    expect(q.effect).toBe(effect);
    if (amounts && 'lines' in q) {
      expect(q.lines.map((l) => l.amountCents)).toEqual(amounts);
      expect(q.totalCents).toBe(amounts.reduce((a, b) => a + b, 0));
    }
    if (period !== undefined && 'period' in q)
      expect(q.period && [q.period.start.toISOString(), q.period.end.toISOString()]).toEqual(period);
    if (effect === 'scheduled' && 'at' in q) expect(q.at).toEqual(current.periodEnd);
  });
});

test('a month from the 31st ends on the last day of a shorter month', () => {
  expect(addInterval(d('2026-01-31T00:00:00Z'), 'month').toISOString()).toBe('2026-02-28T00:00:00.000Z');
  expect(addInterval(d('2028-02-29T00:00:00Z'), 'year').toISOString()).toBe('2029-02-28T00:00:00.000Z');
});
