import type { Delivery } from '../../../contract/notifications.ts';
import { dateTime } from '../shared/format.ts';
import { TableScroll } from '../shared/TableScroll.tsx';

// Each try as `#1 500`, `#2 200`, or the error when nothing answered.
function attemptsText(delivery: Delivery): string {
  if (delivery.attempts.length === 0) return 'not tried yet';
  return delivery.attempts
    .map((attempt) => `#${attempt.attempt} ${attempt.statusCode ?? attempt.error ?? 'no answer'}`)
    .join(', ');
}

/** The notifications sent for the alert: when, which channel and target, whether delivered, each attempt's status code. */
export function Deliveries({ deliveries }: { readonly deliveries: readonly Delivery[] }) {
  return (
    <section className="card panel sg-al-deliveries" aria-labelledby="sg-al-deliveries-heading">
      <h3 id="sg-al-deliveries-heading">Notifications</h3>
      {deliveries.length === 0 ? (
        <p className="muted">No notification was sent for this alert: its rule has no channels, or none is due yet.</p>
      ) : (
        <TableScroll label="Notifications table">
          <table className="data sg-al-table" aria-label="Notifications">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Type</th>
                <th scope="col">Channel</th>
                <th scope="col">Target</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <th scope="row" className="sg-nowrap">
                    <time dateTime={delivery.createdAt}>{dateTime(delivery.createdAt)}</time>
                  </th>
                  <td>{delivery.type}</td>
                  <td>{delivery.channel}</td>
                  <td className="sg-mono">{delivery.target}</td>
                  <td className={delivery.status === 'failed' ? 'sg-has-errors' : undefined}>{delivery.status}</td>
                  <td className="sg-mono">{attemptsText(delivery)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
