/** The event log's view in the URL query, so a link reproduces it: q, a relative range or from/to; the overview links into it. */

export const RANGES = { '1h': 3_600_000, '24h': 86_400_000, '7d': 604_800_000, '30d': 2_592_000_000 } as const;
export type RangeKey = keyof typeof RANGES;

export interface EventLogView {
  readonly q: string;
  /** A relative range, or null when `from`/`to` are absolute. */
  readonly range: RangeKey | null;
  readonly from: string | null;
  readonly to: string | null;
}

const isRange = (value: string | null): value is RangeKey => value !== null && Object.hasOwn(RANGES, value);

/** A range select's value as a range, or null for anything else (the zoomed range's own option). */
export function parseRange(value: string): RangeKey | null {
  return isRange(value) ? value : null;
}
const isTime = (value: string | null): value is string => value !== null && !Number.isNaN(Date.parse(value));

/** Reads the view from a query string; anything malformed falls back to the last 24 hours. */
export function readView(search: string): EventLogView {
  const params = new URLSearchParams(search);
  const from = params.get('from');
  const to = params.get('to');
  if (isTime(from) && isTime(to) && Date.parse(from) < Date.parse(to)) {
    return { q: params.get('q') ?? '', range: null, from, to };
  }
  const range = params.get('range');
  return { q: params.get('q') ?? '', range: isRange(range) ? range : '24h', from: null, to: null };
}

/** Writes the view as a query string. */
export function writeView(view: EventLogView): string {
  const params = new URLSearchParams();
  if (view.q) params.set('q', view.q);
  if (view.range) params.set('range', view.range);
  else if (view.from && view.to) {
    params.set('from', view.from);
    params.set('to', view.to);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The absolute time range of a view at a moment. */
export function absoluteRange(view: EventLogView, now: number): { from: string; to: string } {
  if (view.range === null && view.from && view.to) return { from: view.from, to: view.to };
  const span = RANGES[view.range ?? '24h'];
  return { from: new Date(now - span).toISOString(), to: new Date(now).toISOString() };
}

/** Adds a `field:value` filter to a query (quoted when needed), as a facet click does. */
export function addFilter(q: string, field: string, value: string): string {
  const term = `${field}:${/[\s()"]/.test(value) ? `"${value.replace(/["\\]/g, '\\$&')}"` : value}`;
  return q.trim() === '' ? term : `${q.trim()} ${term}`;
}
