/** Colour mode stores: the saved preference, the page's forced mode, the OS setting and the resolved `$theme`. */
import { persistentAtom } from '@nanostores/persistent';
import { atom, computed, onMount } from 'nanostores';
import {
  applyTheme,
  COLOR_MODE_KEY,
  type ColorMode,
  DARK_QUERY,
  parseColorMode,
  parseForcedMode,
  resolveTheme,
  type Theme,
} from '../lib/color-mode.ts';

/** The user's preference, kept in local storage under one key and shared across tabs. */
export const $colorMode = persistentAtom<ColorMode>(COLOR_MODE_KEY, 'system', {
  encode: (value) => value,
  decode: parseColorMode,
});

/** The colour mode the current page forces (all /auth pages force light), read from the pre-rendered shell. */
export const $forcedMode = atom<Theme | undefined>(
  typeof document === 'undefined' ? undefined : parseForcedMode(document.documentElement.dataset.forcedMode),
);

/** Whether the operating system prefers dark; follows live changes while anything listens. */
export const $systemDark = atom<boolean>(typeof matchMedia === 'function' ? matchMedia(DARK_QUERY).matches : false);

onMount($systemDark, () => {
  if (typeof matchMedia !== 'function') return;
  const query = matchMedia(DARK_QUERY);
  const update = (): void => $systemDark.set(query.matches);
  update();
  query.addEventListener('change', update);
  return () => query.removeEventListener('change', update);
});

/** The theme actually drawn: what charts, maps and CSS follow. */
export const $theme = computed([$colorMode, $forcedMode, $systemDark], (preference, forced, systemDark) =>
  resolveTheme(preference, forced, systemDark),
);

/** Keeps the root element in step with the stores; the only place the DOM is touched. */
export function bindThemeToDocument(root: HTMLElement = document.documentElement): () => void {
  return $theme.subscribe((theme) => applyTheme(root, theme, $colorMode.get(), $forcedMode.get()));
}
