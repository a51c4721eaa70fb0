import '../shared/badges.css';
import type { Alert } from '../../../contract/alerts.ts';
import { dateTime } from '../shared/format.ts';

/** True while a snooze holds the alert (acknowledged until then, back to open after). */
export function isSnoozed(alert: Pick<Alert, 'status' | 'snoozedUntil'>, now: number): boolean {
  return alert.status !== 'resolved' && alert.snoozedUntil !== null && Date.parse(alert.snoozedUntil) > now;
}

/** An alert's status, "snoozed until …" while a snooze holds it. */
export function StatusBadge({
  alert,
  now,
}: {
  readonly alert: Pick<Alert, 'status' | 'snoozedUntil'>;
  readonly now: number;
}) {
  if (isSnoozed(alert, now) && alert.snoozedUntil) {
    return (
      <span className="sg-status sg-status--snoozed">
        snoozed until <time dateTime={alert.snoozedUntil}>{dateTime(alert.snoozedUntil)}</time>
      </span>
    );
  }
  return <span className={`sg-status sg-status--${alert.status}`}>{alert.status}</span>;
}
