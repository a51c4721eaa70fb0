import {
  CHART_TYPE_LABELS,
  CHART_TYPES,
  DASHBOARD_CHART_TYPES,
  parseChartType,
  parseDashboardChartType,
} from './chart-types.ts';

test('users are offered exactly the seed list, in its order', () => {
  expect(CHART_TYPE_LABELS).toEqual(['Spline', 'AreaSpline', 'Line', 'Scatter', 'Column', 'Area']);
  expect(Object.values(CHART_TYPES)).toEqual(['spline', 'areaspline', 'line', 'scatter', 'column', 'area']);
  expect(Object.values(DASHBOARD_CHART_TYPES)).toEqual(expect.arrayContaining(['bar', 'pie']));
});

test.each([
  { input: 'column', expected: 'column' },
  { input: 'areaspline', expected: 'areaspline' },
  { input: 'pie', expected: 'spline' },
  { input: 'Column', expected: 'spline' },
  { input: 42, expected: 'spline' },
  { input: undefined, expected: 'spline' },
])('parseChartType($input) is $expected', ({ input, expected }) => {
  expect(parseChartType(input)).toBe(expected);
});

test.each([
  { input: 'pie', expected: 'pie' },
  { input: 'bar', expected: 'bar' },
  { input: 'scatter', expected: 'scatter' },
  { input: 'heatmap', expected: 'line' },
])('parseDashboardChartType($input) is $expected', ({ input, expected }) => {
  expect(parseDashboardChartType(input)).toBe(expected);
});
