import { type VulnSeverity, vulnSeverityLabels } from '../../../../contract/constants/vulns.ts';

/** A record's severity as a badge whose text says it (and its score when there is one); colour only repeats it. */
export function SeverityBadge({ severity, score }: { readonly severity: VulnSeverity; readonly score: number | null }) {
  return (
    <span className={`sg-vr-sev sg-vr-sev--${severity}`}>
      {vulnSeverityLabels[severity]}
      {score !== null && <> {score.toFixed(1)}</>}
    </span>
  );
}
