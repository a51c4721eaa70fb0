import { describe, expect, test } from 'vitest';
import { dashboardTemplates } from './constants/dashboard-templates.ts';
import { defaultTypeFor, expandVariables, resolveTimePoint, typesFor, variableReferences } from './dashboard-rules.ts';
import { DashboardModel, UpdateDashboardBody } from './dashboards.ts';
import { parseQuery } from './query/parse.ts';

const base = dashboardTemplates.overview.model;

/** The messages of a refused model, by the dotted path of the field they name. */
function problems(model: unknown): Record<string, string> {
  const parsed = DashboardModel.safeParse(model);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('the dashboard model', () => {
  test.each(Object.entries(dashboardTemplates))('the %s template is a valid model', (_, template) => {
    expect(problems(template.model)).toEqual({});
  });

  test('a widget past the 24th column is refused, naming the sum', () => {
    const widgets = [{ ...base.widgets[0], gridPos: { x: 20, y: 0, w: 6, h: 4 } }];
    expect(problems({ ...base, widgets })).toEqual({
      'widgets.0.gridPos.w': 'The grid has 24 columns: x + w must be at most 24 (it is 26).',
    });
  });

  test('more than 50 widgets are refused', () => {
    const widget = base.widgets[0];
    const widgets = Array.from({ length: 51 }, (_, i) => ({ ...widget, id: `w${i}` }));
    expect(problems({ ...base, widgets })).toEqual({ widgets: 'A dashboard has at most 50 widgets.' });
  });

  test('a metric and field that do not go together are refused', () => {
    const query = { metric: 'avg', field: 'country', groupBy: { kind: 'none' }, filter: '' };
    const widgets = [{ ...base.widgets[0], query }];
    expect(problems({ ...base, widgets })).toEqual({
      'widgets.0.query.field': 'An average needs a numeric field (status); country is not one.',
    });
  });

  test('a field outside the event schema is refused', () => {
    const query = { metric: 'count', groupBy: { kind: 'field', field: 'password' }, filter: '' };
    const widgets = [{ ...base.widgets[3], query }];
    expect(Object.keys(problems({ ...base, widgets }))).toEqual(['widgets.0.query.groupBy.field']);
  });

  test('a chart type that cannot draw the grouping is refused', () => {
    const widgets = [{ ...base.widgets[0], type: 'pie' }];
    expect(problems({ ...base, widgets })).toEqual({
      'widgets.0.type': 'A pie chart needs the query grouped by a field.',
    });
  });

  test('a filter naming an unknown variable or failing to parse is refused', () => {
    const widgets = [
      { ...base.widgets[0], query: { ...base.widgets[0]?.query, filter: 'action:blocked $country' } },
      { ...base.widgets[1], query: { ...base.widgets[1]?.query, filter: 'status:abc' } },
    ];
    expect(problems({ ...base, widgets })).toEqual({
      'widgets.0.query.filter': '$country is not a variable of this dashboard (variables: none).',
      'widgets.1.query.filter': 'status expects a whole number, got "abc" (at character 7).',
    });
  });

  test('duplicate widget ids and variable names are refused', () => {
    const widgets = [base.widgets[0], base.widgets[0]];
    const variables = [
      { name: 'c', field: 'country' },
      { name: 'c', field: 'host' },
    ];
    expect(problems({ ...base, widgets, variables })).toEqual({
      'widgets.1.id': 'Another widget has id requests.',
      'variables.1.name': 'Another variable is named c.',
    });
  });

  test('a range ending before it starts is refused', () => {
    expect(problems({ ...base, timeRange: { from: 'now', to: 'now-1h' } })).toEqual({
      'timeRange.from': 'The start of the range must be before its end.',
    });
  });

  test('an update carries the version it was based on', () => {
    expect(UpdateDashboardBody.safeParse(base).success).toBe(false);
    expect(UpdateDashboardBody.safeParse({ ...base, version: 3 }).success).toBe(true);
  });
});

describe('variables', () => {
  const variables = [
    { name: 'country', field: 'country' as const },
    { name: 'rule', field: 'ruleIds' as const },
    { name: 'agent', field: 'userAgent' as const },
  ];

  test('a variable stands for its field with the chosen values, or every event with none', () => {
    expect(expandVariables('action:blocked $country', variables, { country: ['FR'] })).toBe(
      'action:blocked country:FR',
    );
    expect(expandVariables('$country $rule', variables, { country: ['FR', 'DE'], rule: ['942100'] })).toBe(
      '(country:FR OR country:DE) rule:942100',
    );
    expect(expandVariables('-$country', variables, {})).toBe('-*');
    expect(expandVariables('$agent', variables, { agent: ['Mozilla/5.0 (X11)'] })).toBe('ua:"Mozilla/5.0 (X11)"');
  });

  test('every expansion reads as a query that selects what it says', () => {
    expect(parseQuery(expandVariables('$country', variables, {}))).toEqual({
      ok: true,
      ast: { kind: 'and', children: [] },
    });
    expect(parseQuery(expandVariables('$agent', variables, { agent: ['a "quoted" (b)'] }))).toEqual({
      ok: true,
      ast: { kind: 'contains', field: 'userAgent', value: 'a "quoted" (b)' },
    });
  });

  test('$ inside quoted text is not a variable', () => {
    expect(variableReferences('message:"costs $5" $country')).toEqual([{ name: 'country', start: 19, end: 27 }]);
  });
});

test('relative times count back from now', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');
  expect(new Date(resolveTimePoint('now-24h', now)).toISOString()).toBe('2026-11-23T12:00:00.000Z');
  expect(new Date(resolveTimePoint('now-2w', now)).toISOString()).toBe('2026-11-10T12:00:00.000Z');
  expect(resolveTimePoint('now', now)).toBe(now);
  expect(resolveTimePoint('2026-01-01T00:00:00Z', now)).toBe(Date.parse('2026-01-01T00:00:00Z'));
});

test('the type switch offers what can draw the grouping', () => {
  expect(typesFor({ kind: 'none' })).toEqual(['stat', 'table']);
  expect(typesFor({ kind: 'field', field: 'country' })).toContain('map');
  expect(typesFor({ kind: 'field', field: 'host' })).not.toContain('map');
  expect(typesFor({ kind: 'time' })).toContain('stock');
  expect(typesFor({ kind: 'time' })).not.toContain('pie');
});

test('a new widget starts with the type a user would pick for its grouping, one the grouping can draw', () => {
  const groupings = [
    { kind: 'time' },
    { kind: 'field', field: 'ruleIds' },
    { kind: 'field', field: 'country' },
    { kind: 'none' },
  ] as const;
  expect(groupings.map((groupBy) => defaultTypeFor(groupBy))).toEqual(['areaspline', 'bar', 'bar', 'stat']);
  for (const groupBy of groupings) expect(typesFor(groupBy)).toContain(defaultTypeFor(groupBy));
});
