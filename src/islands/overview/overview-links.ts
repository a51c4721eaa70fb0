/** Where the overview's numbers, bars and countries lead: the event log with one filter and the overview's range. */
import { buildPath } from '../../lib/routes.ts';
import { addFilter, type RangeKey, writeView } from '../shared/event-log-url.ts';

/** A link into the event log with the overview's range and one `field:value` filter (none without one). */
export function eventLogLink(spaceId: string, range: RangeKey, filter?: { field: string; value: string }): string {
  const view = { q: filter ? addFilter('', filter.field, filter.value) : '', range, from: null, to: null };
  return buildPath('/console/siem/{space_id}', { space_id: spaceId }) + writeView(view);
}

/** A link into the event log over an absolute window (a chart point's bucket), with one filter or none. */
export function eventLogWindowLink(
  spaceId: string,
  window: { from: string; to: string },
  filter?: { field: string; value: string },
): string {
  const view = { q: filter ? addFilter('', filter.field, filter.value) : '', range: null, ...window };
  return buildPath('/console/siem/{space_id}', { space_id: spaceId }) + writeView(view);
}
