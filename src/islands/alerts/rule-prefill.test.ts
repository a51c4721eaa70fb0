import { EMPTY_DRAFT } from './rule-draft.ts';
import { readRulePrefill } from './rule-prefill.ts';

describe('readRulePrefill', () => {
  test.each([
    { search: '', expected: null },
    { search: '?tab=rules&name=x', expected: null },
    { search: '?newRule=1', expected: EMPTY_DRAFT },
    {
      search:
        '?newRule=1&name=SQLi+from+one+IP&kind=threshold&query=tag%3Aattack-sqli&groupBy=ip,rule&threshold=5&windowMinutes=5',
      expected: {
        ...EMPTY_DRAFT,
        name: 'SQLi from one IP',
        kind: 'threshold',
        query: 'tag:attack-sqli',
        groupBy: ['ip', 'rule'],
        threshold: '5',
        windowMinutes: '5',
      },
    },
    {
      search: '?newRule=1&kind=bogus&groupBy=rule,nope,ip,rule,path,host&threshold=-3&windowMinutes=abc',
      expected: { ...EMPTY_DRAFT, groupBy: ['rule', 'ip', 'path'] },
    },
  ])('$search prefills $expected', ({ search, expected }) => {
    expect(readRulePrefill(search)).toEqual(expected);
  });
});
