/** The event log of a space showing `q` between two times (an alert's or a preview's matching events). */
import { buildPath } from '../../lib/routes.ts';
import { writeView } from '../shared/event-log-url.ts';

/** The path of the event log with the query and absolute range filled in; `to` is nudged a second on so the last event is in. */
export function eventLogLink(spaceId: string, q: string, from: string, to: string): string {
  const end = new Date(Date.parse(to) + 1_000).toISOString();
  const start = Date.parse(from) < Date.parse(end) ? from : new Date(Date.parse(end) - 60_000).toISOString();
  return (
    buildPath('/console/siem/{space_id}', { space_id: spaceId }) + writeView({ q, range: null, from: start, to: end })
  );
}
