/** Where a discover group leads: its term in the event query language, the event log with it, a prefilled alert rule. */
import type { DiscoverGroup } from '../../../contract/constants/waf.ts';
import { buildPath } from '../../lib/routes.ts';
import { type EventLogView, writeView } from '../shared/event-log-url.ts';

/** A value the query language takes unquoted (no space, parenthesis, quote or backslash). */
const bare = /^[^\s()"\\]+$/;

/** A quoted, literal value. */
const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

/**
 * The query term that matches exactly a group's events. A path group holds the path without its query string, so it
 * is the path itself or the path followed by `?` and anything.
 */
export function groupTerm(groupBy: DiscoverGroup, key: string): string {
  if (groupBy !== 'path') return `${groupBy}:${bare.test(key) ? key : quoted(key)}`;
  return bare.test(key) ? `(path:${key} OR path:${key}?*)` : `path:${quoted(key)}`;
}

/** The view's query narrowed to the group (the view's query in parentheses, as it may hold OR). */
export function groupQuery(q: string, groupBy: DiscoverGroup, key: string): string {
  const term = groupTerm(groupBy, key);
  return q.trim() === '' ? term : `(${q.trim()}) ${term}`;
}

/** What a group is, as an alert rule's name. */
const names: Readonly<Record<DiscoverGroup, (key: string) => string>> = {
  ip: (key) => `WAF events from ${key}`,
  rule: (key) => `WAF rule ${key}`,
  path: (key) => `WAF events on ${key}`,
  country: (key) => `WAF events from country ${key}`,
};

/** The links of one group: the event log showing its events in the view's range, and a new threshold rule for it. */
export function groupLinks(spaceId: string, view: EventLogView, groupBy: DiscoverGroup, key: string) {
  const q = groupQuery(view.q, groupBy, key);
  const rule = new URLSearchParams({
    newRule: '1',
    name: names[groupBy](key),
    kind: 'threshold',
    query: q,
    groupBy: 'ip',
  });
  return {
    events: `${buildPath('/console/siem/{space_id}', { space_id: spaceId })}${writeView({ ...view, q })}`,
    alertRule: `${buildPath('/console/alert/{space_id}', { space_id: spaceId })}?${rule}`,
  };
}
