import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { cleanStores } from 'nanostores';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { COLOR_MODE_KEY } from '../../lib/color-mode.ts';
import { $colorMode, $forcedMode, $systemDark, $theme, bindThemeToDocument } from '../../stores/theme.ts';
import ThemeToggle from './ThemeToggle.tsx';

// jsdom has no matchMedia: the OS setting is the edge of the world here, so a controllable stand-in.
const os = { dark: false, listeners: new Set<() => void>() };
function setOsDark(dark: boolean): void {
  os.dark = dark;
  for (const listener of os.listeners) listener();
}

beforeAll(() => {
  window.matchMedia = ((query: string) => ({
    get matches() {
      return os.dark;
    },
    media: query,
    addEventListener: (_type: string, listener: () => void) => os.listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => os.listeners.delete(listener),
  })) as unknown as typeof matchMedia;
  // The app start reads /config.json; here it is not served.
  globalThis.fetch = (async () => new Response('missing', { status: 404 })) as typeof fetch;
});

afterEach(() => {
  $colorMode.set('system');
  $forcedMode.set(undefined);
  cleanStores($theme, $systemDark);
});

test('choosing Dark stores the preference under the fixed key and darkens the page', async () => {
  const unbind = bindThemeToDocument();
  render(<ThemeToggle />);
  await userEvent.click(screen.getByRole('radio', { name: /Dark/ }));
  expect(screen.getByRole('radio', { name: /Dark/ })).toBeChecked();
  expect(localStorage.getItem(COLOR_MODE_KEY)).toBe('dark');
  expect(document.documentElement.dataset.theme).toBe('dark');
  await userEvent.click(screen.getByRole('radio', { name: /Light/ }));
  expect(document.documentElement.dataset.theme).toBe('light');
  unbind();
});

test('arrow keys move between the three modes', async () => {
  render(<ThemeToggle />);
  await userEvent.click(screen.getByRole('radio', { name: /Light/ }));
  await userEvent.keyboard('{ArrowRight}');
  expect($colorMode.get()).toBe('dark');
  await userEvent.keyboard('{ArrowRight}');
  expect($colorMode.get()).toBe('system');
});

test('system follows the OS setting live, light and dark do not', () => {
  const unbind = bindThemeToDocument();
  $colorMode.set('system');
  setOsDark(true);
  expect(document.documentElement.dataset.theme).toBe('dark');
  setOsDark(false);
  expect(document.documentElement.dataset.theme).toBe('light');
  $colorMode.set('light');
  setOsDark(true);
  expect(document.documentElement.dataset.theme).toBe('light');
  setOsDark(false);
  unbind();
});

test('a page-forced mode wins over the preference and disables the toggle', () => {
  $colorMode.set('dark');
  $forcedMode.set('light');
  const unbind = bindThemeToDocument();
  render(<ThemeToggle />);
  expect(document.documentElement.dataset.theme).toBe('light');
  expect(document.documentElement.dataset.themeForced).toBe('true');
  expect(screen.getByRole('group', { name: /always uses light mode/ })).toBeDisabled();
  unbind();
});
