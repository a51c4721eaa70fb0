import { type AlertListView, alertQueryOf, alertsTabSearch, readAlertView, writeAlertView } from './alert-url.ts';

const DEFAULT: AlertListView = {
  tab: 'alerts',
  status: ['open', 'acknowledged'],
  severity: [],
  ruleId: null,
  assignee: null,
  q: '',
};
const RULE = '9b1d7e0a-52c4-4f8e-8a3b-6d2c1f0e9a7b';

describe('readAlertView', () => {
  test.each([
    { search: '', expected: DEFAULT },
    { search: '?tab=rules', expected: { ...DEFAULT, tab: 'rules' } },
    { search: '?tab=nonsense', expected: DEFAULT },
    { search: '?status=resolved', expected: { ...DEFAULT, status: ['resolved'] } },
    { search: '?status=resolved,open,bogus', expected: { ...DEFAULT, status: ['open', 'resolved'] } },
    { search: '?status=bogus', expected: DEFAULT },
    { search: '?severity=high,critical', expected: { ...DEFAULT, severity: ['critical', 'high'] } },
    { search: `?ruleId=${RULE}`, expected: { ...DEFAULT, ruleId: RULE } },
    { search: '?ruleId=not-an-id', expected: DEFAULT },
    { search: '?assignee=me', expected: { ...DEFAULT, assignee: 'me' } },
    { search: '?assignee=none', expected: { ...DEFAULT, assignee: 'none' } },
    { search: `?assignee=${RULE}`, expected: { ...DEFAULT, assignee: RULE } },
    { search: '?assignee=someone', expected: DEFAULT },
    { search: '?q=%20sql%20', expected: { ...DEFAULT, q: 'sql' } },
  ])('$search reads as $expected', ({ search, expected }) => {
    expect(readAlertView(search)).toEqual(expected);
  });
});

describe('writeAlertView', () => {
  test.each([
    { view: DEFAULT, expected: '' },
    { view: { ...DEFAULT, tab: 'rules' as const }, expected: '?tab=rules' },
    { view: { ...DEFAULT, status: ['resolved' as const] }, expected: '?status=resolved' },
    {
      view: { ...DEFAULT, severity: ['critical' as const, 'high' as const], assignee: 'me', q: 'sql injection' },
      expected: '?severity=critical%2Chigh&assignee=me&q=sql+injection',
    },
    { view: { ...DEFAULT, ruleId: RULE }, expected: `?ruleId=${RULE}` },
  ])('$view writes $expected', ({ view, expected }) => {
    expect(writeAlertView(view)).toBe(expected);
  });

  test.each([
    '',
    '?tab=rules&status=open,resolved&severity=critical&assignee=none&q=x',
    `?ruleId=${RULE}&assignee=${RULE}`,
  ])('%s round-trips', (search) => {
    const view = readAlertView(search);
    expect(readAlertView(writeAlertView(view))).toEqual(view);
  });
});

describe('alertQueryOf', () => {
  test.each([
    { view: DEFAULT, expected: { status: 'open,acknowledged' } },
    {
      view: { ...DEFAULT, tab: 'rules' as const, severity: ['info' as const], ruleId: RULE, assignee: 'me', q: 'a' },
      expected: { status: 'open,acknowledged', severity: 'info', ruleId: RULE, assignee: 'me', q: 'a' },
    },
  ])('$view asks the API for $expected', ({ view, expected }) => {
    expect(alertQueryOf(view)).toEqual(expected);
  });
});

describe('alertsTabSearch', () => {
  test.each(['alerts', 'rules'] as const)('%s is the query the tab with the default filters is written as', (tab) => {
    expect(alertsTabSearch(tab)).toBe(writeAlertView({ ...readAlertView(''), tab }));
  });
});
