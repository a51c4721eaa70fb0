/** The library screen's view as its URL keeps it: the search, the filters, and the open record (`?id=`). */

export type RefsFilters = {
  q: string;
  ecosystem: string;
  severity: string;
  modifiedFrom: string;
  modifiedTo: string;
};

export type RefsView = { filters: RefsFilters; id: string | null };

export const FILTER_NAMES = ['q', 'ecosystem', 'severity', 'modifiedFrom', 'modifiedTo'] as const;

export const emptyFilters: RefsFilters = { q: '', ecosystem: '', severity: '', modifiedFrom: '', modifiedTo: '' };

/** Reads the view from `location.search`. */
export function readRefsView(search: string): RefsView {
  const params = new URLSearchParams(search);
  const filters = { ...emptyFilters };
  for (const name of FILTER_NAMES) filters[name] = params.get(name) ?? '';
  return { filters, id: params.get('id') || null };
}

/** The search string of a view: the filters that are set, then the open record. */
export function writeRefsView(view: RefsView): string {
  const params = new URLSearchParams(listQuery(view.filters));
  if (view.id) params.set('id', view.id);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The list's request query for filters and a page's cursor (`GET .../vuln-refs?…`). */
export function listQuery(filters: RefsFilters, cursor: string | null = null): string {
  const params = new URLSearchParams();
  for (const name of FILTER_NAMES) {
    const value = filters[name].trim();
    if (value) params.set(name, value);
  }
  if (cursor) params.set('cursor', cursor);
  return params.toString();
}
