import { expect, test } from 'vitest';
import { absoluteRange, addFilter, parseRange, readView, writeView } from './event-log-url.ts';

test.each([
  ['', { q: '', range: '24h', from: null, to: null }],
  ['?q=action%3Ablocked&range=7d', { q: 'action:blocked', range: '7d', from: null, to: null }],
  ['?range=1y', { q: '', range: '24h', from: null, to: null }],
  [
    '?from=2026-11-01T00:00:00.000Z&to=2026-11-02T00:00:00.000Z',
    { q: '', range: null, from: '2026-11-01T00:00:00.000Z', to: '2026-11-02T00:00:00.000Z' },
  ],
  ['?from=2026-11-02T00:00:00.000Z&to=2026-11-01T00:00:00.000Z', { q: '', range: '24h', from: null, to: null }],
])('%s reads as $1', (search, expected) => {
  expect(readView(search)).toEqual(expected);
  expect(readView(writeView(readView(search)))).toEqual(expected);
});

test('a relative range ends now', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  expect(absoluteRange({ q: '', range: '1h', from: null, to: null }, now)).toEqual({
    from: '2026-11-21T11:00:00.000Z',
    to: '2026-11-21T12:00:00.000Z',
  });
});

test.each([
  ['', 'action', 'blocked', 'action:blocked'],
  ['tag:attack-sqli', 'country', 'FR', 'tag:attack-sqli country:FR'],
  ['', 'host', 'a b', 'host:"a b"'],
])('adding %s:%s to %j gives %j', (q, field, value, expected) => {
  expect(addFilter(q, field, value)).toBe(expected);
});

test.each([
  ['7d', '7d'],
  ['custom', null],
  ['toString', null],
])('the range select value %s reads as %s', (value, expected) => {
  expect(parseRange(value)).toBe(expected);
});
