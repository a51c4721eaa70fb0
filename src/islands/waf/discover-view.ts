/** WAF discover's view in the URL query, so a link reproduces it: the event log's q and range, plus grouping, order and scope. */
import {
  type DiscoverGroup,
  type DiscoverScope,
  type DiscoverSort,
  discoverGroups,
  discoverScopes,
  discoverSorts,
} from '../../../contract/constants/waf.ts';
import { type EventLogView, readView, writeView } from '../shared/event-log-url.ts';

/** What discover shows: the event log's view (query and range) grouped, ordered and scoped. */
export interface DiscoverView extends EventLogView {
  readonly groupBy: DiscoverGroup;
  readonly sort: DiscoverSort;
  readonly scope: DiscoverScope;
}

/** `value` when it is one of `allowed`, else the first of them (the default). */
function oneOf<T extends string>(allowed: readonly T[], value: string | null): T {
  return allowed.find((item) => item === value) ?? (allowed[0] as T);
}

/** Reads the view from a query string; anything malformed falls back to the defaults (24 h, by IP, by count, WAF). */
export function readDiscoverView(search: string): DiscoverView {
  const params = new URLSearchParams(search);
  return {
    ...readView(search),
    groupBy: oneOf(discoverGroups, params.get('groupBy')),
    sort: oneOf(discoverSorts, params.get('sort')),
    scope: oneOf(discoverScopes, params.get('scope')),
  };
}

/** Writes the view as a query string, leaving out what is the default. */
export function writeDiscoverView(view: DiscoverView): string {
  const params = new URLSearchParams(writeView(view));
  if (view.groupBy !== discoverGroups[0]) params.set('groupBy', view.groupBy);
  if (view.sort !== discoverSorts[0]) params.set('sort', view.sort);
  if (view.scope !== discoverScopes[0]) params.set('scope', view.scope);
  const text = params.toString();
  return text ? `?${text}` : '';
}
