import { describe, expect, test } from 'vitest';
import { type QueryLimit, queryLimits } from '../constants/events.ts';
import { parseQuery } from './parse.ts';

/** `n` items made by `make(i)`, joined by `sep`. */
const many = (n: number, make: (i: number) => string, sep = ' ') =>
  Array.from({ length: n }, (_, i) => make(i)).join(sep);

/** Where the parser places a term: its value for `field:value` (after the colon), its start for free text. */
function termAt(query: string, term: string): number {
  const start = query.lastIndexOf(term);
  expect(start).toBeGreaterThanOrEqual(0);
  const colon = term.indexOf(':');
  return colon < 0 || term.startsWith('"') ? start : start + colon + 1;
}

function expectParses(query: string) {
  const parsed = parseQuery(query);
  expect(parsed.ok, parsed.ok ? '' : parsed.error.message).toBe(true);
}

function expectLimit(query: string, limit: QueryLimit, position: number) {
  const parsed = parseQuery(query);
  expect(parsed.ok).toBe(false);
  if (parsed.ok) return;
  expect(parsed.error.limit).toBe(limit);
  expect(parsed.error.message).toContain(String(queryLimits[limit]));
  expect(parsed.error.position).toBe(position);
}

describe('terms', () => {
  test('at the limit parses; one past fails at the extra term', () => {
    const at = many(queryLimits.terms, (i) => `status:${400 + i}`);
    expectParses(at);
    const extra = `status:${400 + queryLimits.terms}`;
    const past = `${at} ${extra}`;
    expectLimit(past, 'terms', termAt(past, extra));
  });

  test('terms count across OR groups, parentheses and negations', () => {
    // Groups of four terms joined by OR, each term negated: the count is of terms, wherever they are.
    const group = (g: number) => `(-tag:a${g} -tag:b${g} OR -tag:c${g} -tag:d${g})`;
    const at = many(queryLimits.terms / 4, group);
    expectParses(at);
    const past = `${at} -tag:over`;
    expectLimit(past, 'terms', termAt(past, 'tag:over'));
  });

  test('negated terms count like any other', () => {
    const at = many(queryLimits.terms, (i) => `-rule:${942000 + i}`);
    expectParses(at);
    const past = `${at} -rule:1`;
    expectLimit(past, 'terms', termAt(past, 'rule:1'));
  });

  test('a free-text term past the limit is placed at its start', () => {
    const at = many(queryLimits.terms, (i) => `method:M${i}`);
    const past = `${at} word`;
    expectLimit(past, 'terms', past.lastIndexOf('word'));
  });
});

describe('orWidth', () => {
  test('at the limit parses; one more alternative fails at its OR', () => {
    const at = many(queryLimits.orWidth, (i) => `status:${400 + i}`, ' OR ');
    expectParses(at);
    const past = `${at} OR status:999`;
    expectLimit(past, 'orWidth', past.lastIndexOf('OR'));
  });

  test('counted per group: two groups each at the limit pass', () => {
    const group = (name: string) => `(${many(queryLimits.orWidth, (i) => `tag:${name}${i}`, ' OR ')})`;
    expectParses(`${group('a')} ${group('b')}`);
    // The outer OR joins only two alternatives.
    expectParses(`${group('a')} OR ${group('b')}`);
  });

  test('the group that goes over is the one reported, not the first', () => {
    const fine = `(${many(queryLimits.orWidth, (i) => `tag:a${i}`, ' OR ')})`;
    const wide = `(${many(queryLimits.orWidth + 1, (i) => `tag:b${i}`, ' OR ')})`;
    const past = `${fine} ${wide}`;
    expectLimit(past, 'orWidth', past.lastIndexOf(' OR ') + 1);
  });

  test('an AND chain inside one alternative does not widen the OR', () => {
    const at = many(queryLimits.orWidth, (i) => `tag:x${i} status:${400 + i}`, ' OR ');
    expectParses(at);
  });
});

describe('ipTerms', () => {
  test('at the limit parses; one past fails at the extra ip: term', () => {
    const at = many(queryLimits.ipTerms, (i) => `ip:10.0.${i}.0/24`);
    expectParses(at);
    const past = `${at} ip:2001:db8::/32`;
    expectLimit(past, 'ipTerms', termAt(past, 'ip:2001:db8::/32'));
  });

  test('negated and OR-ed ip: terms count too', () => {
    const at = many(queryLimits.ipTerms, (i) => `-ip:192.168.${i}.1`, ' OR ');
    expectParses(at);
    const past = `${at} OR -ip:::1`;
    expectLimit(past, 'ipTerms', termAt(past, 'ip:::1'));
  });
});

describe('textTerms', () => {
  test('free text at the limit parses; one past fails at the extra word', () => {
    const at = many(queryLimits.textTerms, (i) => `word${i}`);
    expectParses(at);
    const past = `${at} "one more"`;
    expectLimit(past, 'textTerms', past.lastIndexOf('"one more"'));
  });

  test('message: and ua: count as text searches, mixed with free text', () => {
    const kinds = [(i: number) => `message:m${i}`, (i: number) => `ua:u${i}`, (i: number) => `w${i}`];
    const at = many(queryLimits.textTerms, (i) => kinds[i % kinds.length]?.(i) ?? '');
    expectParses(at);
    const pastMessage = `${at} message:"over"`;
    expectLimit(pastMessage, 'textTerms', termAt(pastMessage, 'message:"over"'));
    const pastUa = `${at} -ua:over`;
    expectLimit(pastUa, 'textTerms', termAt(pastUa, 'ua:over'));
  });

  test('other fields are not text searches', () => {
    const text = many(queryLimits.textTerms, (i) => `w${i}`);
    expectParses(`${text} host:a.example.com path:/x tag:t method:GET country:FR action:blocked`);
  });
});

describe('textLength', () => {
  test('a free-text value at the limit parses; one character more fails at the term', () => {
    const at = 'x'.repeat(queryLimits.textLength);
    expectParses(`status:403 ${at}`);
    const past = `status:403 ${at}y`;
    expectLimit(past, 'textLength', past.indexOf(at));
  });

  test('quoted values count their characters, not the quotes or escapes', () => {
    // Each `\"` is one character of the value.
    const value = '\\"'.repeat(queryLimits.textLength);
    expectParses(`message:"${value}"`);
    const past = `action:blocked message:"${value}x"`;
    expectLimit(past, 'textLength', past.indexOf('"'));
  });

  test('ua: values are bounded too; path: and host: values are not text searches', () => {
    const long = 'u'.repeat(queryLimits.textLength + 1);
    const past = `ua:${long}`;
    expectLimit(past, 'textLength', termAt(past, `ua:${long}`));
    expectParses(`path:/${long} host:${long}`);
  });
});

describe('what is not a limit', () => {
  test.each(['foo:bar', '(action:blocked', 'a OR', 'status:abc', `status:${2 ** 31}`, 'message:"sql'])(
    'the syntax error of %j carries no limit',
    (query) => {
      const parsed = parseQuery(query);
      expect(parsed.ok).toBe(false);
      if (parsed.ok) return;
      expect(parsed.error).not.toHaveProperty('limit');
      expect(Object.keys(parsed.error).sort()).toEqual(['message', 'position']);
    },
  );

  test('a syntax error before the budget runs out is reported as such', () => {
    const parsed = parseQuery(`${many(queryLimits.terms - 1, (i) => `tag:t${i}`)} foo:bar`);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.limit).toBeUndefined();
  });
});
