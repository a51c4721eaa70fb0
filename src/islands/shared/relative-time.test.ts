import { relativeTime } from './relative-time.ts';

const now = Date.parse('2026-11-22T12:00:00Z');

describe('relativeTime', () => {
  test.each([
    { iso: '2026-11-22T11:59:30Z', expected: 'just now' },
    { iso: '2026-11-22T12:00:10Z', expected: 'just now' },
    { iso: '2026-11-22T11:59:00Z', expected: '1 minute ago' },
    { iso: '2026-11-22T11:57:00Z', expected: '3 minutes ago' },
    { iso: '2026-11-22T10:00:00Z', expected: '2 hours ago' },
    { iso: '2026-11-21T12:00:00Z', expected: 'yesterday' },
    { iso: '2026-11-12T12:00:00Z', expected: '10 days ago' },
    { iso: '2026-08-22T12:00:00Z', expected: '3 months ago' },
    { iso: '2024-11-22T12:00:00Z', expected: '2 years ago' },
    { iso: '2026-11-22T12:05:00Z', expected: 'in 5 minutes' },
    { iso: 'not a time', expected: 'not a time' },
  ])('$iso reads $expected', ({ iso, expected }) => {
    expect(relativeTime(iso, now)).toBe(expected);
  });
});
