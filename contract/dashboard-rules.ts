/**
 * The pure rules of dashboards, without zod, so the islands carry none of the schema code: relative times,
 * variables and their expansion, which metric takes which field, which chart type draws which grouping.
 * contract/dashboards.ts builds the schemas on these.
 */

import {
  cartesianTypes,
  type DashboardField,
  dashboardFieldNames,
  dashboardFields,
  relativeTimePattern,
  relativeTimeUnitMs,
  type WidgetMetric,
  type WidgetType,
  widgetTypeLabels,
  widgetTypes,
} from './constants/dashboards.ts';
import type { Dashboard, DashboardModel, GroupBy } from './dashboards.ts';

/** The values chosen for each variable, by name. */
export type VariableValues = Readonly<Record<string, readonly string[]>>;

export type VariableLike = { readonly name: string; readonly field: DashboardField };

/** The time a point stands for at `now`, in epoch milliseconds (NaN for a point that is neither form). */
export function resolveTimePoint(point: string, now: number): number {
  const relative = relativeTimePattern.exec(point);
  if (relative) {
    const [, amount, unit] = relative;
    return amount && unit ? now - Number(amount) * relativeTimeUnitMs[unit as keyof typeof relativeTimeUnitMs] : now;
  }
  return Date.parse(point);
}

/** Quotes a value for the query language where it would not read as one word, so a selected value is literal. */
export function queryValue(value: string): string {
  return /^[A-Za-z0-9._:/@-]+$/.test(value) && value !== 'OR' && value !== 'AND'
    ? value
    : `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** Where each `$name` stands in a filter (outside quoted text): its name, start and end. */
export function variableReferences(filter: string): { name: string; start: number; end: number }[] {
  const found: { name: string; start: number; end: number }[] = [];
  let quoted = false;
  for (let i = 0; i < filter.length; i++) {
    const char = filter[i];
    if (quoted) {
      if (char === '\\') i++;
      else if (char === '"') quoted = false;
    } else if (char === '"') {
      quoted = true;
    } else if (char === '$') {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(filter.slice(i + 1))?.[0];
      if (name) {
        found.push({ name, start: i, end: i + 1 + name.length });
        i += name.length;
      }
    }
  }
  return found;
}

/**
 * A filter with each `$name` replaced by the condition it stands for: `field:value` for one chosen value,
 * `(field:a OR field:b)` for several, and `*` (every event) for none. A name that is not a variable stays as it is,
 * which the query language then reads as free text (the model refuses such filters when saved).
 */
export function expandVariables(filter: string, variables: readonly VariableLike[], values: VariableValues): string {
  const refs = variableReferences(filter);
  if (refs.length === 0) return filter;
  let out = '';
  let at = 0;
  for (const ref of refs) {
    const variable = variables.find((candidate) => candidate.name === ref.name);
    if (!variable) continue;
    const term = dashboardFields[variable.field].term;
    const chosen = values[ref.name] ?? [];
    const conditions = chosen.map((value) => `${term}:${queryValue(value)}`);
    let expansion = '*';
    if (conditions.length === 1) expansion = conditions[0] as string;
    else if (conditions.length > 1) expansion = `(${conditions.join(' OR ')})`;
    out += filter.slice(at, ref.start) + expansion;
    at = ref.end;
  }
  return out + filter.slice(at);
}

/** Why a metric and its field do not go together, or null when they do. */
export function metricProblem(metric: WidgetMetric, field: DashboardField | undefined): string | null {
  if (metric === 'count') return field === undefined ? null : 'A count takes no field; remove it or count distinct.';
  if (field === undefined) return `Choose the field to ${metric === 'distinct' ? 'count distinct values of' : metric}.`;
  if ((metric === 'sum' || metric === 'avg') && !dashboardFields[field].numeric) {
    const numeric = dashboardFieldNames.filter((name) => dashboardFields[name].numeric).join(', ');
    return `${metric === 'sum' ? 'A sum' : 'An average'} needs a numeric field (${numeric}); ${field} is not one.`;
  }
  return null;
}

/** Why a widget type cannot draw a grouping, or null when it can. */
export function typeProblem(type: WidgetType, groupBy: GroupBy): string | null {
  const label = widgetTypeLabels[type];
  switch (type) {
    case 'pie':
      return groupBy.kind === 'field' ? null : 'A pie chart needs the query grouped by a field.';
    case 'stock':
      return groupBy.kind === 'time' ? null : 'A stock chart needs the query grouped by time.';
    case 'map':
      return groupBy.kind === 'field' && groupBy.field === 'country'
        ? null
        : 'A world map needs the query grouped by the country field.';
    case 'stat':
      return groupBy.kind === 'none' ? null : 'A single number needs a query without grouping (group by none).';
    case 'table':
      return null;
    default:
      return cartesianTypes.includes(type) && groupBy.kind === 'none'
        ? `A ${label.toLowerCase()} chart needs the query grouped by time or by a field.`
        : null;
  }
}

/**
 * The type a new widget starts with for its grouping, as a user would pick it: an area over time, horizontal bars for
 * a field's values (long names such as paths and rules read along a bar), one number without grouping.
 */
export function defaultTypeFor(groupBy: GroupBy): WidgetType {
  if (groupBy.kind === 'field') return 'bar';
  if (groupBy.kind === 'none') return 'stat';
  return 'areaspline';
}

/** The widget types that can draw a grouping, in the model's order: what the per-widget type switch offers. */
export function typesFor(groupBy: GroupBy): WidgetType[] {
  return widgetTypes.filter((type) => typeProblem(type, groupBy) === null);
}

/** The model of a stored dashboard: what export writes. */
export function modelOf(dashboard: Dashboard): DashboardModel {
  return {
    schemaVersion: dashboard.schemaVersion,
    title: dashboard.title,
    ...(dashboard.description === undefined ? {} : { description: dashboard.description }),
    timeRange: dashboard.timeRange,
    refreshSeconds: dashboard.refreshSeconds,
    variables: dashboard.variables,
    widgets: dashboard.widgets,
  };
}
