import { expect, test } from 'vitest';
import { safeNext } from './session.ts';

const ORIGIN = 'https://console.example.test';
const LANDING = '/auth/landing';

// The `next` values as the login page reads them: URLSearchParams has already decoded one level of %-escapes.
test.each([
  ['a protocol-relative URL', '//evil.test/'],
  ['slash backslash', '/\\evil.test/'],
  ['backslash slash', '\\/evil.test/'],
  ['two backslashes', '\\\\evil.test/'],
  ['a tab between the slashes (/%09/)', '/\t/evil.test/'],
  ['a newline between the slashes', '/\n/evil.test/'],
  ['a carriage return between the slashes', '/\r/evil.test/'],
  ['a leading tab', '\t//evil.test/'],
  ['a leading space', ' //evil.test/'],
  ['%2f%2f without a leading slash', '%2f%2fevil.test/'],
  ['%5c without a leading slash', '%5c%5cevil.test/'],
  ['a dot segment that leaves // in the path', '/.//evil.test/'],
  ['a dot-dot segment that leaves // in the path', '/..//evil.test/'],
  ['javascript:', 'javascript:alert(document.domain)'],
  ['data:', 'data:text/html,<script>alert(1)</script>'],
  ['an absolute URL elsewhere', 'https://evil.test/'],
  ['an absolute URL without slashes', 'https:evil.test'],
  ['an absolute URL of the same origin', `${ORIGIN}/spaces`],
  ['userinfo', '//console.example.test@evil.test/'],
  ['userinfo after the origin', `${ORIGIN}@evil.test/`],
  ['a relative path', 'spaces'],
  ['a query alone', '?next=//evil.test'],
  ['nothing', ''],
  ['no parameter', null],
])('%s (%j) falls back to the landing page', (_label, value) => {
  expect(safeNext(value, ORIGIN)).toBe(LANDING);
});

test.each([
  ['/spaces', '/spaces'],
  ['/console/1234?q=ip%3A10.0.0.1#top', '/console/1234?q=ip%3A10.0.0.1#top'],
  ['/%2f%2fevil.test/', '/%2f%2fevil.test/'],
  ['/%5cevil.test/', '/%5cevil.test/'],
  ['/profile/../spaces', '/spaces'],
  ['/auth/login?next=%2Fprofile', '/auth/login?next=%2Fprofile'],
])('the same-origin path %j goes to $1', (value, expected) => {
  expect(safeNext(value, ORIGIN)).toBe(expected);
});

test('the page origin is the default', () => {
  expect(safeNext('/spaces')).toBe('/spaces');
  expect(safeNext('/\t/evil.test/')).toBe(LANDING);
});
