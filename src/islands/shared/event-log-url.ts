/**
 * The event log's view in the URL query, so a link reproduces it: q, a relative range or from/to; the overview links
 * into it. And the live check of its query bar (WAF discover's too).
 */

import { useCallback, useMemo, useState } from 'react';
import type { ParseResult } from '../../../contract/query/parse.ts';
import { buildPath } from '../../lib/routes.ts';

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

/** `field:value` as the query language reads it: the value quoted (`"` and `\` escaped) unless it is one plain word. */
export function filterTerm(field: string, value: string): string {
  // Quoted when a space, parenthesis or quote would end it, a `*` would make it a prefix, or `<>=` a comparison.
  const plain = value !== '' && !/[\s()"*\\]/.test(value) && !/^[<>=]/.test(value);
  return `${field}:${plain ? value : `"${value.replace(/["\\]/g, '\\$&')}"`}`;
}

/** Where `term` stands alone (between spaces or at an end) in a query. */
const standing = (term: string): RegExp => new RegExp(`(^|\\s)${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=\\s|$)`);

/**
 * Adds `term` to the query unless it is there already; its opposite (`-term` for `term` and back) is taken out
 * first when the query is a plain list of terms (no OR, AND or parentheses), so filtering for what was excluded
 * swaps the one for the other instead of matching nothing.
 */
function withTerm(q: string, term: string, opposite: string): string {
  let text = q.trim();
  if (standing(term).test(text)) return text;
  if (!/[()]|\b(?:OR|AND)\b/.test(text)) text = text.replace(standing(opposite), '').trim();
  return text === '' ? term : `${text} ${term}`;
}

/** Adds a `field:value` filter to a query (quoted when needed), as a facet click does. */
export function addFilter(q: string, field: string, value: string): string {
  const term = filterTerm(field, value);
  return withTerm(q, term, `-${term}`);
}

/** Adds a `-field:value` negation to a query (quoted when needed): the events without that value. */
export function excludeFilter(q: string, field: string, value: string): string {
  const term = filterTerm(field, value);
  return withTerm(q, `-${term}`, term);
}

/** The query parameter that names the event whose drawer is open. */
const EVENT_PARAM = 'event';
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A root-relative link to the event log of `spaceId` in `view` with event `eventId` open, as the drawer shares it. */
export function eventPermalink(spaceId: string, view: EventLogView, eventId: string): string {
  const params = new URLSearchParams(writeView(view));
  params.set(EVENT_PARAM, eventId);
  return `${buildPath('/console/siem/{space_id}', { space_id: spaceId })}?${params}`;
}

/** The event a permalink opens (its id), or null when the query string names none or a malformed one. */
export function readEventParam(search: string): string | null {
  const id = new URLSearchParams(search).get(EVENT_PARAM);
  return id !== null && uuid.test(id) ? id.toLowerCase() : null;
}

/**
 * The query bar's live check in the event query language. The parser (about 3 KB gzip) loads when the field is first
 * focused or edited; until then a query counts as valid, since one from the URL or a facet is checked by the API anyway
 * and the live check is for what the user types.
 */
export interface QueryParser {
  /** The draft's parse, or `{ ok: true }` while the parser has not loaded. */
  readonly parsed: ParseResult | { readonly ok: true };
  /** Starts loading the parser; call it on the field's focus and change. */
  readonly load: () => void;
}

export function useQueryParser(draft: string): QueryParser {
  const [parse, setParse] = useState<((text: string) => ParseResult) | null>(null);
  const load = useCallback(() => {
    if (parse) return;
    void import('../../../contract/query/parse.ts').then((module) => setParse(() => module.parseQuery));
  }, [parse]);
  const parsed = useMemo(() => (parse ? parse(draft) : { ok: true as const }), [parse, draft]);
  return { parsed, load };
}
