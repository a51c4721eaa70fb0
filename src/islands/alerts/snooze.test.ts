import { snoozeUntil } from './snooze.ts';

const NOW = Date.parse('2026-11-20T10:00:00.000Z');

describe('snoozeUntil', () => {
  test.each([
    { choice: '1h', local: '', expected: '2026-11-20T11:00:00.000Z' },
    { choice: '4h', local: '', expected: '2026-11-20T14:00:00.000Z' },
    { choice: '24h', local: '', expected: '2026-11-21T10:00:00.000Z' },
    { choice: '7d', local: '', expected: '2026-11-27T10:00:00.000Z' },
    { choice: 'custom', local: '', expected: null },
    { choice: 'custom', local: 'not a date', expected: null },
    { choice: 'custom', local: '2020-01-01T00:00', expected: null },
  ] as const)('$choice $local ends at $expected', ({ choice, local, expected }) => {
    expect(snoozeUntil(choice, local, NOW)).toBe(expected);
  });

  test('a custom time in the future is that time, read in the local zone', () => {
    expect(snoozeUntil('custom', '2030-05-01T08:30', NOW)).toBe(new Date('2030-05-01T08:30').toISOString());
  });
});
