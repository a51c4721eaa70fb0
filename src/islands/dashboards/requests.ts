/** What a dashboard asks the API: time ranges in words and as instants, and each widget's request. */

import type { VariableValues } from '../../../contract/dashboard-rules.ts';
import { expandVariables, resolveTimePoint } from '../../../contract/dashboard-rules.ts';
import type { DashboardModel, TimeRange, Widget, WidgetQueryBody } from '../../../contract/dashboards.ts';

/** The relative ranges the picker offers, newest first in the usual order. */
export const relativeRanges = [
  { from: 'now-15m', label: 'Last 15 minutes' },
  { from: 'now-1h', label: 'Last hour' },
  { from: 'now-6h', label: 'Last 6 hours' },
  { from: 'now-24h', label: 'Last 24 hours' },
  { from: 'now-7d', label: 'Last 7 days' },
  { from: 'now-30d', label: 'Last 30 days' },
] as const;

const unitWords = { m: 'minute', h: 'hour', d: 'day', w: 'week' } as const;

/** A range in words: "Last 24 hours", "Last 3 days", or its two instants in UTC. */
export function rangeLabel(range: TimeRange): string {
  const known = relativeRanges.find((option) => option.from === range.from && range.to === 'now');
  if (known) return known.label;
  const relative = /^now-(\d+)([mhdw])$/.exec(range.from);
  if (relative && range.to === 'now') {
    const [, amount, unit] = relative;
    const word = unitWords[unit as keyof typeof unitWords];
    return `Last ${amount} ${word}${amount === '1' ? '' : 's'}`;
  }
  return `${utc(range.from)} to ${utc(range.to)}`;
}

function utc(point: string): string {
  const at = Date.parse(point);
  return Number.isNaN(at) ? point : `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Whether a range moves with time (its end is `now`): such ranges are asked again on every refresh. */
export const isRelative = (range: TimeRange) => range.to.startsWith('now') || range.from.startsWith('now');

/** A range's two instants at `now`, as ISO strings. */
export function rangeInstants(range: TimeRange, now: number): { from: string; to: string } {
  return {
    from: new Date(resolveTimePoint(range.from, now)).toISOString(),
    to: new Date(resolveTimePoint(range.to, now)).toISOString(),
  };
}

/** A widget's request at `now`: its filter with the variables written in, the range as instants. */
export function widgetRequest(
  widget: Widget,
  model: Pick<DashboardModel, 'variables'>,
  range: TimeRange,
  values: VariableValues,
  now: number,
): WidgetQueryBody {
  return {
    query: { ...widget.query, filter: expandVariables(widget.query.filter, model.variables, values) },
    ...rangeInstants(range, now),
  };
}

/** The values each variable starts with: its defaults. */
export function defaultValues(model: Pick<DashboardModel, 'variables'>): Record<string, string[]> {
  return Object.fromEntries(model.variables.map((variable) => [variable.name, [...(variable.default ?? [])]]));
}

/** A `<input type="datetime-local">` value (UTC) for an instant, and back. */
export function toLocalInput(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? '' : new Date(at).toISOString().slice(0, 16);
}
export function fromLocalInput(value: string): string | null {
  const at = Date.parse(`${value}:00Z`);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}

/** How often a dashboard refreshes, in words. */
export const refreshLabel = (seconds: number) =>
  seconds === 0
    ? 'Off'
    : seconds < 60
      ? `Every ${seconds} seconds`
      : `Every ${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
