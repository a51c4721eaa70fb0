import { expect, test } from 'vitest';
import { parseQuery } from '../../../contract/query/parse.ts';
import {
  absoluteRange,
  addFilter,
  eventPermalink,
  excludeFilter,
  parseRange,
  readEventParam,
  readView,
  writeView,
} from './event-log-url.ts';

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
  ['', 'tag', 'odd*tag', 'tag:"odd*tag"'],
  ['', 'message', 'say "hi" \\o/', 'message:"say \\"hi\\" \\\\o/"'],
  ['', 'ip', '2001:db8::1', 'ip:2001:db8::1'],
  ['', 'host', '>=x', 'host:">=x"'],
  ['country:FR', 'country', 'FR', 'country:FR'],
  ['action:blocked -country:FR', 'country', 'FR', 'action:blocked country:FR'],
  ['-country:FR OR action:logged', 'country', 'FR', '-country:FR OR action:logged country:FR'],
])('adding %s:%s to %j gives %j', (q, field, value, expected) => {
  expect(addFilter(q, field, value)).toBe(expected);
  expect(parseQuery(expected).ok).toBe(true);
});

test.each([
  ['', 'country', 'FR', '-country:FR'],
  ['action:blocked', 'rule', '942100', 'action:blocked -rule:942100'],
  ['', 'host', 'a b', '-host:"a b"'],
  ['-country:FR', 'country', 'FR', '-country:FR'],
  ['country:FR action:blocked', 'country', 'FR', 'action:blocked -country:FR'],
  ['country:FRA', 'country', 'FR', 'country:FRA -country:FR'],
  ['(country:FR OR country:DE)', 'country', 'FR', '(country:FR OR country:DE) -country:FR'],
])('excluding %s:%s from %j gives %j', (q, field, value, expected) => {
  expect(excludeFilter(q, field, value)).toBe(expected);
});

test('a permalink reproduces the view and names the event, which reads back', () => {
  const id = '0b7c6c55-7a7e-4f59-9d9e-2c8c2b7b0c11';
  const view = { q: 'action:blocked -country:FR', range: '7d', from: null, to: null } as const;
  const link = eventPermalink('5f0c6c55-7a7e-4f59-9d9e-2c8c2b7b0c22', view, id);
  expect(link).toBe(
    `/console/siem/5f0c6c55-7a7e-4f59-9d9e-2c8c2b7b0c22?q=action%3Ablocked+-country%3AFR&range=7d&event=${id}`,
  );
  const search = link.slice(link.indexOf('?'));
  expect(readView(search)).toEqual(view);
  expect(readEventParam(search)).toBe(id);
});

test.each([
  ['', null],
  ['?event=', null],
  ['?event=not-an-id', null],
  ['?q=x&event=0B7C6C55-7A7E-4F59-9D9E-2C8C2B7B0C11', '0b7c6c55-7a7e-4f59-9d9e-2c8c2b7b0c11'],
])('the event of %j is %j', (search, expected) => {
  expect(readEventParam(search)).toBe(expected);
});

test.each([
  ['7d', '7d'],
  ['custom', null],
  ['toString', null],
])('the range select value %s reads as %s', (value, expected) => {
  expect(parseRange(value)).toBe(expected);
});
