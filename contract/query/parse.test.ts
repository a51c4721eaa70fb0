import { expect, test } from 'vitest';
import type { QueryNode } from './ast.ts';
import { parseQuery } from './parse.ts';

const text = (value: string): QueryNode => ({ kind: 'text', value });

test.each<{ query: string; expected: QueryNode }>([
  { query: '', expected: { kind: 'and', children: [] } },
  { query: '  sqli  ', expected: text('sqli') },
  { query: '*', expected: { kind: 'and', children: [] } },
  { query: '"*"', expected: text('*') },
  {
    query: 'action:blocked *',
    expected: {
      kind: 'and',
      children: [
        { kind: 'equals', field: 'action', value: 'blocked' },
        { kind: 'and', children: [] },
      ],
    },
  },
  { query: 'a b', expected: { kind: 'and', children: [text('a'), text('b')] } },
  { query: 'a AND b', expected: { kind: 'and', children: [text('a'), text('b')] } },
  {
    query: 'a b OR c',
    expected: { kind: 'or', children: [{ kind: 'and', children: [text('a'), text('b')] }, text('c')] },
  },
  {
    query: 'a (b OR c)',
    expected: { kind: 'and', children: [text('a'), { kind: 'or', children: [text('b'), text('c')] }] },
  },
  { query: 'or and', expected: { kind: 'and', children: [text('or'), text('and')] } },
  { query: '"OR"', expected: text('OR') },
  { query: '-(a OR b)', expected: { kind: 'not', child: { kind: 'or', children: [text('a'), text('b')] } } },
  { query: 'attack-sqli', expected: text('attack-sqli') },
  { query: '"say \\"hi\\" \\\\ back"', expected: text('say "hi" \\ back') },
  { query: 'status:>=400', expected: { kind: 'compare', field: 'status', op: '>=', value: 400 } },
  { query: 'status:"404"', expected: { kind: 'compare', field: 'status', op: '=', value: 404 } },
  { query: 'rule:942000..942999', expected: { kind: 'range', field: 'rule', from: 942000, to: 942999 } },
  { query: 'severity:>=high', expected: { kind: 'severity', levels: ['high', 'critical'] } },
  { query: 'severity:<low', expected: { kind: 'severity', levels: ['info'] } },
  { query: 'ip:10.1.2.3/8', expected: { kind: 'ip', cidr: '10.0.0.0/8' } },
  { query: 'ip:10.1.2.3', expected: { kind: 'ip', cidr: '10.1.2.3/32' } },
  { query: 'ip:2001:DB8::1', expected: { kind: 'ip', cidr: '2001:db8:0:0:0:0:0:1/128' } },
  { query: 'ip:2001:db8:abcd::/36', expected: { kind: 'ip', cidr: '2001:db8:a000:0:0:0:0:0/36' } },
  { query: 'country:fr', expected: { kind: 'equals', field: 'country', value: 'fr' } },
  { query: 'HOST:Shop.Example.com', expected: { kind: 'equals', field: 'host', value: 'shop.example.com' } },
  { query: 'path:/admin*', expected: { kind: 'path', value: '/admin', prefix: true } },
  { query: 'path:"/admin*"', expected: { kind: 'path', value: '/admin*', prefix: false } },
  { query: 'tag:attack-sqli', expected: { kind: 'tag', value: 'attack-sqli', prefix: false } },
  { query: 'ua:"curl/8"', expected: { kind: 'contains', field: 'userAgent', value: 'curl/8' } },
  { query: 'message:a:b', expected: { kind: 'contains', field: 'message', value: 'a:b' } },
  {
    query: 'firewall:7B0C6C55-7A7E-4F59-9D9E-2C8C2B7B0C11',
    expected: { kind: 'firewall', id: '7b0c6c55-7a7e-4f59-9d9e-2c8c2b7b0c11' },
  },
])('$query parses to $expected.kind', ({ query, expected }) => {
  expect(parseQuery(query)).toEqual({ ok: true, ast: expected });
});

test.each([
  { query: 'foo:bar', message: 'Unknown field "foo"', position: 0 },
  { query: 'action:blocked bogus:1', message: 'Unknown field "bogus"', position: 15 },
  { query: 'status:abc', message: 'status expects a whole number, got "abc"', position: 7 },
  { query: 'status:>=4x0', message: 'status expects a whole number, got "4x0"', position: 9 },
  { query: 'status:400..4x', message: 'status expects a whole number, got "4x"', position: 12 },
  { query: 'rule:4.5', message: 'rule expects a whole number, got "4.5"', position: 5 },
  { query: 'status:99999999999', message: 'Number too large for status: 99999999999', position: 7 },
  { query: 'status:500..400', message: 'Range start 500 is greater than its end 400', position: 7 },
  { query: 'status:', message: 'Empty value for status', position: 7 },
  { query: 'a status: b', message: 'Empty value for status', position: 9 },
  { query: 'status:>=', message: 'Empty value after >=', position: 9 },
  { query: 'host:""', message: 'Empty value for host', position: 5 },
  { query: '""', message: 'Empty quoted text', position: 0 },
  { query: 'firewall:edge', message: 'firewall expects a firewall id (a UUID), got "edge"', position: 9 },
  { query: 'firewall:>=1', message: 'firewall does not support comparisons', position: 9 },
  { query: 'ip:10.0.0.0/33', message: 'Bad IP address or CIDR range "10.0.0.0/33"', position: 3 },
  { query: 'ip:300.1.1.1', message: 'Bad IP address or CIDR range "300.1.1.1"', position: 3 },
  { query: 'x ip:2001:db8:::1', message: 'Bad IP address or CIDR range "2001:db8:::1"', position: 5 },
  { query: 'ip:2001:db8::/129', message: 'Bad IP address or CIDR range "2001:db8::/129"', position: 3 },
  { query: 'ip:example.com', message: 'Bad IP address or CIDR range "example.com"', position: 3 },
  { query: '(action:blocked', message: 'Unclosed parenthesis', position: 0 },
  { query: 'a (b (c)', message: 'Unclosed parenthesis', position: 2 },
  { query: 'action:blocked)', message: 'Unexpected closing parenthesis', position: 14 },
  { query: ')', message: 'Unexpected closing parenthesis', position: 0 },
  { query: '()', message: 'Empty parentheses', position: 0 },
  { query: 'a -()', message: 'Empty parentheses', position: 3 },
  { query: 'a OR', message: 'OR must be followed by a term', position: 2 },
  { query: 'OR a', message: 'OR must come between two terms', position: 0 },
  { query: 'a OR OR b', message: 'OR must be followed by a term', position: 2 },
  { query: '(a OR) b', message: 'OR must be followed by a term', position: 3 },
  { query: 'a (OR b)', message: 'OR must come between two terms', position: 3 },
  { query: 'AND a', message: 'AND must come between two terms', position: 0 },
  { query: 'a AND', message: 'AND must be followed by a term', position: 2 },
  { query: 'message:"sql', message: 'Unclosed quote', position: 8 },
  { query: 'a "abc', message: 'Unclosed quote', position: 2 },
  { query: '- a', message: '- must be followed by a term', position: 0 },
  { query: 'a -', message: '- must be followed by a term', position: 2 },
  { query: 'severity:urgent', message: 'severity must be one of info, low, medium, high, critical', position: 9 },
  { query: 'severity:>=bad', message: 'severity must be one of info, low, medium, high, critical', position: 11 },
  { query: 'action:denied', message: 'action must be one of blocked, logged, allowed', position: 7 },
  { query: 'country:FRA', message: 'country expects a two-letter code, got "FRA"', position: 8 },
  { query: 'host:>a', message: 'host does not support comparisons', position: 5 },
  { query: 'path:/a*b', message: 'Wildcard * is only allowed at the end of a value', position: 7 },
])('$query fails at $position: $message', ({ query, message, position }) => {
  const result = parseQuery(query);
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.message).toContain(message);
  expect(result.error.position).toBe(position);
});

test('deep nesting is an error, not a stack overflow', () => {
  expect(parseQuery(`${'('.repeat(10_000)}a${')'.repeat(10_000)}`)).toEqual({
    ok: false,
    error: { message: 'Query nested too deeply', position: 64 },
  });
  expect(parseQuery(`${'-'.repeat(64)}a`).ok).toBe(true);
});

test('the unknown-field error lists the fields', () => {
  expect(parseQuery('foo:1')).toEqual({
    ok: false,
    error: {
      message:
        'Unknown field "foo" (fields: action, country, firewall, host, ip, message, method, path, rule, severity, status, tag, ua)',
      position: 0,
    },
  });
});
