import { expect, test } from 'vitest';
import { claimReload, isChunkLoadError, RELOAD_GUARD_MS } from './reload-guard.ts';

test.each([
  [new TypeError('Failed to fetch dynamically imported module: http://x/_astro/a.js'), true],
  [new TypeError('Importing a module script failed.'), true],
  [new TypeError('error loading dynamically imported module'), true],
  [new Error('Cannot read properties of undefined'), false],
])('%s is a chunk load error: %s', (error, expected) => {
  expect(isChunkLoadError(error)).toBe(expected);
});

test('reloads once per path within 10 000 ms, then again after', () => {
  const storage = new Map<string, string>();
  const store = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, value),
  };
  expect(claimReload(store, '/spaces', 1_000)).toBe(true);
  expect(claimReload(store, '/spaces', 1_000 + RELOAD_GUARD_MS - 1)).toBe(false);
  expect(claimReload(store, '/profile', 1_500)).toBe(true);
  expect(claimReload(store, '/spaces', 1_000 + RELOAD_GUARD_MS)).toBe(true);
});
