/** The event log's histogram series, by action: their colours in each colour mode and their names, for the chart and its legend. */
import type { Theme } from '../../lib/color-mode.ts';

/** Series colours of each action by colour mode (the chart theme's red, amber and green; 3:1 on the chart). */
export const ACTION_COLORS: Readonly<Record<Theme, Readonly<Record<'blocked' | 'logged' | 'allowed', string>>>> = {
  light: { blocked: '#dc2626', logged: '#b45309', allowed: '#047857' },
  dark: { blocked: '#f87171', logged: '#fbbf24', allowed: '#34d399' },
};

/** The histogram's series, bottom to top, with their names (the page draws the legend from these). */
export const ACTION_SERIES = [
  ['blocked', 'Blocked'],
  ['logged', 'Logged'],
  ['allowed', 'Allowed'],
] as const;
