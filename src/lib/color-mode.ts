/** Colour mode rules shared by the inline pre-paint script and the theme store, so both resolve alike. */

export type ColorMode = 'light' | 'dark' | 'system';
export type Theme = 'light' | 'dark';

/** The one local-storage key under which the preference is kept. */
export const COLOR_MODE_KEY = 'spaceguard:color-mode';

/** Media query that tells whether the operating system prefers dark. */
export const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Turns anything read from storage into a valid preference; unknown values mean "system". */
export function parseColorMode(value: unknown): ColorMode {
  return value === 'light' || value === 'dark' || value === 'system' ? value : 'system';
}

/** Turns a page's `data-forced-mode` attribute into a forced theme, or undefined. */
export function parseForcedMode(value: unknown): Theme | undefined {
  return value === 'light' || value === 'dark' ? value : undefined;
}

/** The theme to draw: a page-forced mode wins, then the preference, with "system" following the OS. */
export function resolveTheme(preference: ColorMode, forced: Theme | undefined, systemDark: boolean): Theme {
  if (forced) return forced;
  if (preference === 'system') return systemDark ? 'dark' : 'light';
  return preference;
}

/** Writes the resolved theme onto the root element, where CSS and the islands read it. */
export function applyTheme(root: HTMLElement, theme: Theme, preference: ColorMode, forced: Theme | undefined): void {
  root.dataset.theme = theme;
  root.dataset.colorMode = preference;
  if (forced) root.dataset.themeForced = 'true';
  else delete root.dataset.themeForced;
  root.style.colorScheme = theme;
}
