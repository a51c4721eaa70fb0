import type { AlertDetail } from '../../../contract/alerts.ts';
import { dateTime } from '../shared/format.ts';
import { TableScroll } from '../shared/TableScroll.tsx';
import { eventLogLink } from './event-log-link.ts';

/** The alert's kept matching events (newest first), and the event log with its query and time range filled in. */
export function MatchingEvents({ alert }: { readonly alert: AlertDetail }) {
  return (
    <section className="card panel sg-al-events" aria-labelledby="sg-al-events-heading">
      <div className="row sg-al-section-head">
        <h3 id="sg-al-events-heading">Matching events</h3>
        <a
          className="button secondary"
          href={eventLogLink(alert.spaceId, alert.eventQuery, alert.firstSeen, alert.lastSeen)}
        >
          Open in event log
        </a>
      </div>
      {alert.events.length === 0 ? (
        <p className="muted">
          No events kept for this alert{alert.kind === 'silence' ? ': it fired for their absence' : ''}.
        </p>
      ) : (
        <TableScroll label="Matching events table">
          <table className="data sg-al-table" aria-label="Matching events">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Client</th>
                <th scope="col">Method</th>
                <th scope="col">Host</th>
                <th scope="col">Path</th>
                <th scope="col" className="sg-num">
                  Status
                </th>
                <th scope="col">Action</th>
                <th scope="col">Rules</th>
              </tr>
            </thead>
            <tbody>
              {alert.events.map((event) => (
                <tr key={event.id}>
                  <th scope="row" className="sg-nowrap">
                    <time dateTime={event.time}>{dateTime(event.time)}</time>
                  </th>
                  <td className="sg-mono">{event.ip ?? '–'}</td>
                  <td>{event.method ?? '–'}</td>
                  <td className="sg-mono">{event.host ?? '–'}</td>
                  <td className="sg-mono sg-al-path">{event.path ?? '–'}</td>
                  <td className="sg-num">{event.status ?? '–'}</td>
                  <td>{event.action}</td>
                  <td className="sg-mono">{event.ruleIds.join(' ') || '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
