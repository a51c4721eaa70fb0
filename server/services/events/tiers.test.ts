/**
 * Which queries the rollups may count (the answers themselves are checked against a plain scan in store.test.ts):
 * the rollup key alone, or the key ANDed with one term that selects values of one rolled facet, each event having
 * exactly one row for it.
 */
import { describe, expect, test } from 'vitest';
import { parseQuery } from '../../../contract/query/parse.ts';
import { cutRange, facetRollupCount, rollupAnswerable } from './tiers.ts';

const ast = (q: string) => {
  const parsed = parseQuery(q);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.ast;
};
const firewall = '6f0e8e47-54a4-4b53-9df5-3c1b7e0f2a11';

describe('facetRollupCount', () => {
  test.each([
    ['', null],
    ['action:blocked', null],
    [`firewall:${firewall} -action:allowed`, null],
    ['tag:attack-sqli', 'tag'],
    ['tag:attack-sqli action:blocked', 'tag'],
    ['rule:942100', 'rule'],
    ['severity:>=high', 'severity'],
    ['country:CN', 'country'],
    [`host:shop.example.com firewall:${firewall}`, 'host'],
  ])('%j is counted from the rollups (selecting %s)', (q, facet) => {
    const counted = facetRollupCount(ast(q));
    expect(counted).not.toBeNull();
    expect(counted?.selector?.facet ?? null).toBe(facet);
  });

  test.each([
    // Two facet terms: an event's tag row does not say its rule.
    'tag:attack-sqli rule:942100',
    // OR and NOT would count an event twice or need the events outside the value.
    'tag:attack-sqli OR action:blocked',
    '-tag:attack-sqli',
    // Prefixes, comparisons and ranges select no single value; ip ranges and free text are not rolled facets' values.
    'tag:attack*',
    'rule:>942000',
    'rule:942000..942999',
    'ip:10.0.0.0/8',
    'injection',
    'method:post',
  ])('%j is not', (q) => {
    expect(facetRollupCount(ast(q))).toBeNull();
  });

  test('facets take only the rollup key: a tag filter needs every other value of its events', () => {
    expect(rollupAnswerable(ast('action:blocked'))).toBe(true);
    expect(rollupAnswerable(ast('tag:attack-sqli'))).toBe(false);
  });
});

describe('cutRange', () => {
  const H = 3_600_000;
  const D = 24 * H;
  test('whole days in the middle, hours beside them, the ragged ends as edges', () => {
    const from = 10 * D + 5 * H + 30 * 60_000;
    const to = 13 * D + 2 * H + 15 * 60_000;
    const { whole, edges } = cutRange(from, to, ['day', 'hour']);
    expect(whole).toEqual([
      { tier: 'day', from: 11 * D, to: 13 * D },
      { tier: 'hour', from: 10 * D + 6 * H, to: 11 * D },
      { tier: 'hour', from: 13 * D, to: 13 * D + 2 * H },
    ]);
    expect(edges).toEqual([
      { from, to: 10 * D + 6 * H, toInclusive: false },
      { from: 13 * D + 2 * H, to, toInclusive: true },
    ]);
  });

  test('a range inside one hour is one edge', () => {
    expect(cutRange(5 * H + 60_000, 5 * H + 120_000, ['day', 'hour'])).toEqual({
      whole: [],
      edges: [{ from: 5 * H + 60_000, to: 5 * H + 120_000, toInclusive: true }],
    });
  });
});
