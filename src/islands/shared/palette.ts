/**
 * The colours that mean something, in each colour mode: one per severity (events', alerts' and findings') and one per
 * firewall action. Badges (SeverityBadge), charts (the findings trend, a widget grouped by severity or action) and
 * the overview read them here, so Critical is the same red in a pill and in a chart. Each reaches 3:1 on the card
 * background of its mode (palette.test.ts).
 */
import type { EventAction, Severity } from '../../../contract/constants/events.ts';
import type { VulnSeverity } from '../../../contract/constants/vulns.ts';
import type { Theme } from '../../lib/color-mode.ts';

/** Every severity word a badge or a chart shows. */
export type AnySeverity = Severity | VulnSeverity;

export const SEVERITY_COLOURS: Readonly<Record<Theme, Readonly<Record<AnySeverity, string>>>> = {
  light: {
    critical: '#b42318',
    high: '#c2410c',
    medium: '#a16207',
    low: '#2563eb',
    info: '#6b7280',
    none: '#6b7280',
    unknown: '#6b7280',
  },
  dark: {
    critical: '#ff8a80',
    high: '#fb923c',
    medium: '#facc15',
    low: '#60a5fa',
    info: '#9ca3af',
    none: '#9ca3af',
    unknown: '#9ca3af',
  },
};

export const ACTION_COLOURS: Readonly<Record<Theme, Readonly<Record<EventAction, string>>>> = {
  light: { blocked: '#b42318', logged: '#b45309', allowed: '#047857' },
  dark: { blocked: '#ff8a80', logged: '#fbbf24', allowed: '#34d399' },
};

/** A severity's colour in a mode. */
export function severityColour(theme: Theme, severity: AnySeverity): string {
  return SEVERITY_COLOURS[theme][severity];
}

/**
 * The colour a chart gives a value of a field whose values mean something (a severity, an action), or undefined for
 * any other field or value, which then takes the chart's series colours.
 */
export function valueColour(theme: Theme, field: string, value: unknown): string | undefined {
  const key = String(value);
  if (field === 'severity' && Object.hasOwn(SEVERITY_COLOURS[theme], key))
    return SEVERITY_COLOURS[theme][key as AnySeverity];
  if (field === 'action' && Object.hasOwn(ACTION_COLOURS[theme], key)) return ACTION_COLOURS[theme][key as EventAction];
  return undefined;
}
