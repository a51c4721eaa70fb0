import { afterEach, expect, test } from 'vitest';
import type { CookieOptions } from './config.ts';
import { cookieAttributes, createKeyValueStore } from './persistence.ts';

const cookie: CookieOptions = { domain: null, path: '/', sameSite: 'lax', secure: false, maxAgeDays: 1 };

afterEach(() => {
  sessionStorage.clear();
  for (const pair of document.cookie.split('; ')) {
    const name = pair.split('=')[0];
    if (name) document.cookie = `${name}=; Path=/; Max-Age=0`;
  }
});

test.each(['local', 'session', 'cookie'] as const)('%s storage keeps, reads back and removes a value', (kind) => {
  const store = createKeyValueStore(kind, cookie);
  store.set('spaceguard:last-space', 'space 1/ä');
  expect(store.get('spaceguard:last-space')).toBe('space 1/ä');
  store.remove('spaceguard:last-space');
  expect(store.get('spaceguard:last-space')).toBeNull();
});

test('each kind writes where it says', () => {
  createKeyValueStore('session', cookie).set('k', 'v');
  expect(sessionStorage.getItem('k')).toBe('v');
  expect(localStorage.getItem('k')).toBeNull();
  createKeyValueStore('cookie', cookie).set('k', 'c');
  expect(document.cookie).toContain('k=c');
});

test('cookie options become cookie attributes', () => {
  expect(
    cookieAttributes(
      { domain: '.example.test', path: '/app', sameSite: 'strict', secure: true, maxAgeDays: 2 },
      172_800,
    ),
  ).toBe('Path=/app; Max-Age=172800; SameSite=Strict; Domain=.example.test; Secure');
  expect(cookieAttributes({ ...cookie, sameSite: 'none' }, 10)).toContain('Secure');
});
