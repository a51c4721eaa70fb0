import { checkRegex } from './check-regex.ts';
import { commentText, modsecRegex, modsecText, nginxString, regexLiteral, UnsafeValueError } from './escape.ts';
import { exclusionTargetProblem } from './modsecurity-conf.ts';
import { cidrText, modsecNetworks } from './networks.ts';
import { nginxRate, proxyTarget } from './nginx-conf.ts';
import { customRuleIds } from './rule-ids.ts';

describe('escaping', () => {
  test.each([
    ['/api/search', '/api/search'],
    ['a.b', 'a\\.b'],
    ['a"b', 'a\\x22b'],
    ['%{tx.x}', '\\x25\\x7btx\\.x\\x7d'],
    ['a b\\', 'a\\x20b\\x5c'],
    ['é', '\\xc3\\xa9'],
  ])('regexLiteral(%j) is %j', (value, expected) => {
    expect(regexLiteral(value)).toBe(expected);
  });

  test.each([
    ['^/admin(/|$)', '^/admin(/|$)'],
    ['a"b', 'a\\x22b'],
    ['\\"', '\\x22'],
    ['100%', '100\\x25'],
    ['%{tx.x}', '\\x25{tx.x}'],
    ["it's", 'it\\x27s'],
    ['a\\\\b', 'a\\x5cb'],
    ['trailing\\', 'trailing\\x5c'],
    ['\\d+\\.\\w', '\\d+\\.\\w'],
    ['\\Qa.b"\\E+', 'a\\x2eb\\x22+'],
    ['\\Qunterminated "', 'unterminated\\x20\\x22'],
    ['\\cA\\c"', '\\cA\\x62'],
    ['café', 'caf\\xc3\\xa9'],
    ['\\é', '\\xc3\\xa9'],
    ['[^"\']', '[^\\x22\\x27]'],
  ])('modsecRegex(%j) is %j', (value, expected) => {
    expect(modsecRegex(value)).toBe(expected);
  });

  test.each(['a"b', '\\"x', '%{x}', "it's", 'x\\\\', '\\Qa"b\\E', 'caf\u00e9', '[\\x22"]', 'a\\'])(
    'modsecRegex(%j) holds no quote, percent or lone trailing backslash and still compiles alike',
    (value) => {
      const written = modsecRegex(value);
      expect(written).not.toMatch(/["'%]/);
      expect(written).not.toMatch(/(^|[^\\])(\\\\)*\\$/);
      expect([...written].every((char) => char.charCodeAt(0) >= 0x20 && char.charCodeAt(0) < 0x7f)).toBe(true);
      if (checkRegex(value) === null) expect(checkRegex(written)).toBeNull();
    },
  );

  test.each([
    ['/login', '"/login"'],
    ['/a"b', '"/a\\"b"'],
    ['/a\\b', '"/a\\\\b"'],
    ['/a;b}{$c', '"/a;b}{$c"'],
  ])('nginxString(%j) is %j', (value, expected) => {
    expect(nginxString(value)).toBe(expected);
  });

  test.each(['a\nb', 'a\rb', 'nul\u0000', 'del\u007f'])('nginxString(%j) is refused', (value) => {
    expect(() => nginxString(value)).toThrow(UnsafeValueError);
  });

  test.each([
    ['one\ntwo', 'one two'],
    ['ends with \\', 'ends with'],
    ['x'.repeat(300), `${'x'.repeat(199)}…`],
  ])('commentText(%j) is %j', (value, expected) => {
    expect(commentText(value)).toBe(expected);
  });

  test.each([
    ['Joe\'s "rule", 100%{x}', 'Joe s rule 100 x'],
    ['Block /admin (v2) #3', 'Block /admin (v2) #3'],
  ])('modsecText(%j) is %j', (value, expected) => {
    expect(modsecText(value)).toBe(expected);
  });
});

describe('addresses', () => {
  test.each([
    ['10.1.2.3', ['10.1.2.3']],
    ['10.1.2.3/32', ['10.1.2.3']],
    ['10.1.2.3/8', ['10.0.0.0/8']],
    ['0.0.0.0/0', ['0.0.0.0/1', '128.0.0.0/1']],
    ['::/0', ['::/1', '8000::/1']],
    ['::1/128', ['::1']],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', ['2001:db8::1']],
    ['2001:db8:0:1:0:0:0:0/64', ['2001:db8:0:1::/64']],
    ['fe80:0:0:1:0:0:0:1', ['fe80:0:0:1::1']],
  ])('modsecNetworks(%j) is %j', (value, expected) => {
    expect(modsecNetworks(value)).toEqual(expected);
  });

  test.each([
    ['127.0.0.1', '127.0.0.1/32'],
    ['::1', '::1/128'],
    ['0:0:0:0:0:0:0:0/0', '::/0'],
  ])('cidrText(%j) is %j', (value, expected) => {
    expect(cidrText(value)).toBe(expected);
  });

  test.each(['10.0.0.1/33', '10.0.0', 'a::b::c', '1.2.3.4;', ''])('%j is refused', (value) => {
    expect(() => modsecNetworks(value)).toThrow(UnsafeValueError);
  });
});

describe('nginx values', () => {
  test.each([
    [5, 60, '5r/m'],
    [100, 10, '10r/s'],
    [20, 1, '20r/s'],
    [2, 6, '20r/m'],
    [1, 60, '1r/m'],
    [24, 1440, '1r/m'],
  ])('%i requests per %i s is rate=%s', (requests, windowSeconds, expected) => {
    expect(nginxRate({ requests, windowSeconds })).toBe(expected);
  });

  test.each([
    [2, 7],
    [5, 3600],
    [3, 86_400],
    [1000, 3600],
  ])('%i requests per %i s has no nginx rate and is refused, not rounded', (requests, windowSeconds) => {
    expect(() => nginxRate({ requests, windowSeconds })).toThrow(UnsafeValueError);
  });

  test.each([
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['https://shop.internal:8443/', 'https://shop.internal:8443'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
    ['HTTP://Example.COM', 'http://example.com'],
  ])('proxyTarget(%j) is %j', (value, expected) => {
    expect(proxyTarget(value)).toBe(expected);
  });

  test.each([
    'ftp://x',
    'http://a:b@host',
    'http://host/path',
    'http://host?x=1',
    'http://$host',
    'http://\\.example',
    'http://host:3000;',
    'not a url',
    'http://127.0.0.1:30\t00',
    'http://127.0.0.1:3000/\n',
    'http://127.0.\u200b0.1:3000',
  ])('proxyTarget(%j) is refused', (value) => {
    expect(() => proxyTarget(value)).toThrow(UnsafeValueError);
  });
});

describe('custom rule ids', () => {
  test.each([
    [
      [{}, {}, {}],
      [4_200_000, 4_200_001, 4_200_002],
    ],
    [
      [{ id: 4_200_005 }, {}, { id: 4_200_000 }],
      [4_200_005, 4_200_001, 4_200_000],
    ],
    [
      [{ id: 4_200_001 }, { id: 4_200_001 }],
      [4_200_001, 4_200_000],
    ],
    [
      [{ id: 942_100 }, { id: 4_209_999 }],
      [4_200_000, 4_209_999],
    ],
  ])('%j get %j', (rules, expected) => {
    expect(customRuleIds(rules)).toEqual(expected);
  });
});

describe('exclusion targets', () => {
  test.each([
    ['ARGS:q', null],
    ['ARGS', null],
    ['REQUEST_URI', null],
    ['REQUEST_URI:x', 'REQUEST_URI is one value, not a collection: name it without ":x".'],
    ['REQUEST_BODY:]', 'REQUEST_BODY is one value, not a collection: name it without ":]".'],
    ['REQUEST_FILENAME:a:b', 'REQUEST_FILENAME is one value, not a collection: name it without ":a:b".'],
  ])('exclusionTargetProblem(%j) is %j', (value, expected) => {
    expect(exclusionTargetProblem(value)).toBe(expected);
  });
});
