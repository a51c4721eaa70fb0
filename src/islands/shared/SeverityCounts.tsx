import type { AlertList } from '../../../contract/alerts.ts';
import { severities } from '../../../contract/constants/events.ts';
import './badges.css';
import { SeverityBadge } from './SeverityBadge.tsx';

/** The filtered alerts by severity as badges ("3 critical, 5 high"), beside the page title; nothing when there are none. */
export function SeverityCounts({ counts }: { readonly counts: AlertList['counts'] }) {
  const shown = severities.filter((severity) => counts[severity] > 0);
  if (shown.length === 0) return <p className="sg-al-counts muted">No alerts in this view</p>;
  return (
    <ul className="sg-al-counts" aria-label="Alerts by severity">
      {shown.map((severity) => (
        <SeverityBadge key={severity} severity={severity} as="li">
          {counts[severity].toLocaleString('en')} {severity}
        </SeverityBadge>
      ))}
    </ul>
  );
}
