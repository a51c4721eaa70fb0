import type { AssetFindingCounts } from '../../../../contract/assets.ts';
import { vulnSeverities, vulnSeverityLabels } from '../../../../contract/constants/vulns.ts';
import { SeverityBadge } from '../../shared/SeverityBadge.tsx';

/** An asset's open findings by severity as badges ("2 Critical, 1 High"); "none open" when there are none. */
export function FindingCounts({ counts, label }: { readonly counts: AssetFindingCounts; readonly label: string }) {
  const shown = vulnSeverities.filter((severity) => counts.open[severity] > 0);
  if (shown.length === 0) return <span className="muted">none open</span>;
  return (
    <ul className="sg-va-counts" aria-label={label}>
      {shown.map((severity) => (
        <SeverityBadge key={severity} severity={severity} as="li">
          {counts.open[severity].toLocaleString('en')} {vulnSeverityLabels[severity].toLowerCase()}
        </SeverityBadge>
      ))}
    </ul>
  );
}
