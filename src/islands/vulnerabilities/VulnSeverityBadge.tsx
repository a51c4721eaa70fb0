import { type VulnSeverity, vulnSeverityLabels } from '../../../contract/constants/vulns.ts';
import { SeverityBadge } from '../shared/SeverityBadge.tsx';

/** A finding's or a library record's severity as the shared badge, in words with its CVSS score when there is one. */
export function VulnSeverityBadge({
  severity,
  score,
}: {
  readonly severity: VulnSeverity;
  readonly score: number | null;
}) {
  return (
    <SeverityBadge severity={severity}>
      {vulnSeverityLabels[severity]}
      {score !== null && ` ${score.toFixed(1)}`}
    </SeverityBadge>
  );
}
