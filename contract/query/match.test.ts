import { expect, test } from 'vitest';
import { matchesEvent } from './match.ts';
import { parseQuery } from './parse.ts';
import { matchCases, sampleEvents } from './test-cases.ts';

test.each(matchCases)('$query matches $expected', ({ query, expected }) => {
  const parsed = parseQuery(query);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const wanted = expected === '(none)' ? [] : expected.split(' ');
  for (const event of sampleEvents) {
    expect({ event: event.name, matches: matchesEvent(parsed.ast, event) }).toEqual({
      event: event.name,
      matches: wanted.includes(event.name),
    });
  }
});

test('the case table covers at least 40 queries and names only sample events', () => {
  expect(matchCases.length).toBeGreaterThanOrEqual(40);
  const names = new Set(sampleEvents.map((e) => e.name));
  for (const { expected } of matchCases) {
    if (expected !== '(none)') for (const name of expected.split(' ')) expect(names).toContain(name);
  }
});

test('an event given as a plain object with absent fields matches only what it has', () => {
  const parsed = parseQuery('status:>=400 OR -tag:x');
  if (!parsed.ok) throw new Error(parsed.error.message);
  expect(matchesEvent(parsed.ast, {})).toBe(true);
  expect(matchesEvent(parsed.ast, { tags: ['x'] })).toBe(false);
  expect(matchesEvent(parsed.ast, { tags: ['x'], status: 404 })).toBe(true);
});
