import '../shared/badges.css';
import type { Severity } from '../../../contract/constants/events.ts';

/** An alert's or rule's severity as a coloured badge whose text says it (colour is never the only cue). */
export function SeverityBadge({ severity }: { readonly severity: Severity }) {
  return <span className={`sg-sev sg-sev--${severity}`}>{severity}</span>;
}
