import type { AlertList } from '../../../contract/alerts.ts';
import { severities } from '../../../contract/constants/events.ts';

/** The filtered alerts by severity as badges ("3 critical, 5 high"), beside the page title; nothing when there are none. */
export function SeverityCounts({ counts }: { readonly counts: AlertList['counts'] }) {
  const shown = severities.filter((severity) => counts[severity] > 0);
  if (shown.length === 0) return <p className="sg-al-counts muted">No alerts in this view</p>;
  return (
    <ul className="sg-al-counts" aria-label="Alerts by severity">
      {shown.map((severity) => (
        <li key={severity} className={`sg-sev sg-sev--${severity}`}>
          {counts[severity].toLocaleString('en')} {severity}
        </li>
      ))}
    </ul>
  );
}
