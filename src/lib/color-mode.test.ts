import { expect, test } from 'vitest';
import { type ColorMode, parseColorMode, parseForcedMode, resolveTheme, type Theme } from './color-mode.ts';

test.each<[ColorMode, Theme | undefined, boolean, Theme]>([
  ['light', undefined, true, 'light'],
  ['dark', undefined, false, 'dark'],
  ['system', undefined, true, 'dark'],
  ['system', undefined, false, 'light'],
  ['dark', 'light', true, 'light'],
  ['system', 'dark', false, 'dark'],
])('preference %s, forced %s, OS dark %s draws $3', (preference, forced, systemDark, expected) => {
  expect(resolveTheme(preference, forced, systemDark)).toBe(expected);
});

test.each([
  ['dark', 'dark'],
  ['light', 'light'],
  ['system', 'system'],
  ['DARK', 'system'],
  [null, 'system'],
  [42, 'system'],
])('stored value %s reads as %s', (stored, expected) => {
  expect(parseColorMode(stored)).toBe(expected);
});

test('a page can force light or dark but never system', () => {
  expect(parseForcedMode('light')).toBe('light');
  expect(parseForcedMode('dark')).toBe('dark');
  expect(parseForcedMode('system')).toBeUndefined();
});
