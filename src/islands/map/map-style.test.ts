import { markerRadius, markerStyle, outlineStyle } from './map-style.ts';

test.each([
  { count: 120, max: 120, expected: 20 },
  { count: 30, max: 120, expected: 12 },
  { count: 1, max: 10_000, expected: 4.2 },
  { count: 0, max: 10, expected: 4 },
  { count: 5, max: 0, expected: 4 },
  { count: 500, max: 100, expected: 20 },
])('a marker for $count of at most $max has radius $expected px', ({ count, max, expected }) => {
  expect(markerRadius(count, max)).toBe(expected);
});

test('a larger count never gets a smaller marker', () => {
  const radii = [1, 2, 5, 10, 50, 100, 1000].map((count) => markerRadius(count, 1000));
  expect(radii).toEqual([...radii].sort((a, b) => a - b));
});

test.each(['light', 'dark'] as const)(
  '%s mode styles outlines and markers differently from the other mode',
  (theme) => {
    const other = theme === 'light' ? 'dark' : 'light';
    expect(outlineStyle(theme).fillColor).not.toBe(outlineStyle(other).fillColor);
    expect(markerStyle(theme).fillColor).not.toBe(markerStyle(other).fillColor);
  },
);
