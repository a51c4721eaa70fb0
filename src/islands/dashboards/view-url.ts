/**
 * The explore page's view in its URL, as Grafana writes it: `?from=now-7d&to=now&var-country=FR&var-country=DE`.
 * A link or a reload shows the same range and variable values; what equals the dashboard's defaults is left out.
 */
import { relativeTimePattern } from '../../../contract/constants/dashboards.ts';
import { resolveTimePoint } from '../../../contract/dashboard-rules.ts';
import type { DashboardModel, TimeRange } from '../../../contract/dashboards.ts';
import { defaultValues } from './requests.ts';

/** The range and the variables' values a view shows. */
export interface ExploreView {
  readonly range: TimeRange;
  readonly values: Record<string, string[]>;
}

/** At most this many values of one variable are read from a URL (the select offers the top 100). */
const MAX_VALUES = 100;

const isPoint = (text: string | null): text is string =>
  text !== null &&
  (relativeTimePattern.test(text) || (/^\d{4}-\d\d-\d\dT/.test(text) && !Number.isNaN(Date.parse(text))));

/** The view in `search` for `model`: its range when both ends read and from is before to, its known variables. */
export function readExploreView(search: string, model: Pick<DashboardModel, 'timeRange' | 'variables'>): ExploreView {
  const params = new URLSearchParams(search);
  const from = params.get('from');
  const to = params.get('to');
  const now = Date.now();
  const range =
    isPoint(from) && isPoint(to) && resolveTimePoint(from, now) < resolveTimePoint(to, now)
      ? { from, to }
      : model.timeRange;
  const values = defaultValues(model);
  for (const variable of model.variables) {
    const key = `var-${variable.name}`;
    if (!params.has(key)) continue;
    const given = [...new Set(params.getAll(key).filter((value) => value !== ''))].slice(0, MAX_VALUES);
    values[variable.name] = variable.multi ? given : given.slice(0, 1);
  }
  return { range, values };
}

const same = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((value, index) => value === b[index]);

/** The query string of a view (`?…`, or '' when it is the dashboard's defaults). */
export function writeExploreView(view: ExploreView, model: Pick<DashboardModel, 'timeRange' | 'variables'>): string {
  const params = new URLSearchParams();
  if (view.range.from !== model.timeRange.from || view.range.to !== model.timeRange.to) {
    params.set('from', view.range.from);
    params.set('to', view.range.to);
  }
  const defaults = defaultValues(model);
  for (const variable of model.variables) {
    const chosen = view.values[variable.name] ?? [];
    if (same(chosen, defaults[variable.name] ?? [])) continue;
    // None chosen (every event) is written as one empty value, so it is told apart from "the default".
    if (chosen.length === 0) params.append(`var-${variable.name}`, '');
    for (const value of chosen) params.append(`var-${variable.name}`, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
