import { timeZoneOptions } from './time-zones.ts';

describe('timeZoneOptions', () => {
  test.each([
    { current: 'UTC', expected: 'UTC' },
    { current: 'Europe/Paris', expected: 'Europe/Paris' },
    { current: 'Etc/GMT+5', expected: 'Etc/GMT+5' },
  ])('offers $expected when the space uses $current', ({ current, expected }) => {
    const options = timeZoneOptions(current);
    expect(options).toContain(expected);
    expect(new Set(options).size).toBe(options.length);
  });
});
