import { effectiveRetention, retentionText } from './retention.ts';

describe('retention of a source', () => {
  test.each([
    { source: null, space: 7, days: 7, expected: '7 days (the space’s retention)' },
    { source: 3, space: 7, days: 3, expected: '3 days' },
    { source: 1, space: 7, days: 1, expected: '1 day' },
    { source: 90, space: 30, days: 30, expected: '30 days (90 days set, capped at the space’s retention)' },
  ])('source $source, space $space reads $expected', ({ source, space, days, expected }) => {
    expect(effectiveRetention(source, space)).toBe(days);
    expect(retentionText(source, space)).toBe(expected);
  });
});
