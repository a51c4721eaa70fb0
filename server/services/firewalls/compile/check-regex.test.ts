import { checkRegex, regexJudge } from './check-regex.ts';

describe('checkRegex (PCRE2 through grep -P, as ModSecurity compiles)', () => {
  test('this machine judges with PCRE2', () => {
    expect(regexJudge()).toBe('pcre2');
  });

  test.each([
    'admin',
    '^/wp-(admin|login)',
    '(?i)sqlmap|nikto',
    '\\d{3,}',
    '(?<year>\\d{4})-\\k<year>',
    'a"b',
    '%{tx.anomaly_score}',
    "it's",
    '\\Qa.b"c\\E+',
    'caf\u00e9',
    '[^\\x00-\\x1f]',
    'ends in an escaped backslash \\\\',
  ])('accepts %j', (value) => {
    expect(checkRegex(value)).toBeNull();
  });

  test.each([
    ['(abc', /Missing closing parenthesis/],
    ['a{2,1}', /out of order/],
    ['[z-a]', /out of order/],
    ['(?<=a+)b', /Lookbehind/],
    ['*a', /Quantifier/],
    ['abc\\', /at end of pattern/],
    ['abc\\\\\\', /at end of pattern/],
    ['a\\x{100}', /too large/],
    ['', /Enter a regular expression/],
    ['a\nb', /control characters/],
  ])('refuses %j', (value, reason) => {
    expect(checkRegex(value)).toMatch(reason);
  });
});
