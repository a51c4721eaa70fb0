import '../../shared/badges.css';
import { findingStatusLabels } from '../../../../contract/constants/vulns.ts';
import type { Finding } from '../../../../contract/findings.ts';
import { TableScroll } from '../../shared/TableScroll.tsx';
import { VulnSeverityBadge } from '../VulnSeverityBadge.tsx';

interface Props {
  readonly items: readonly Finding[];
  /** Checkboxes for bulk triage when set. */
  readonly selected: ReadonlySet<string> | null;
  readonly onSelect: (ids: ReadonlySet<string>) => void;
  readonly onOpen: (id: string) => void;
  readonly onOpenAsset: (assetId: string) => void;
}

/** The findings of a page: vulnerability, component, asset, severity, fixed-in version, status. */
export function FindingsTable({ items, selected, onSelect, onOpen, onOpenAsset }: Props) {
  const toggle = (id: string): void => {
    if (!selected) return;
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelect(next);
  };
  const allSelected = selected !== null && items.length > 0 && items.every((f) => selected.has(f.id));
  return (
    <TableScroll label="Findings">
      <table className="data sg-vu-table" aria-label="Findings">
        <thead>
          <tr>
            {selected && (
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label="Select every finding of this page"
                  checked={allSelected}
                  onChange={() => onSelect(allSelected ? new Set() : new Set(items.map((f) => f.id)))}
                />
              </th>
            )}
            <th scope="col">Vulnerability</th>
            <th scope="col">Component</th>
            <th scope="col">Asset</th>
            <th scope="col">Severity</th>
            <th scope="col">Fixed in</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {items.map((f) => (
            <tr key={f.id}>
              {selected && (
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select ${f.vulnId} in ${f.component.name} ${f.component.version}`}
                    checked={selected.has(f.id)}
                    onChange={() => toggle(f.id)}
                  />
                </td>
              )}
              <td>
                <button type="button" className="link-button sg-mono sg-vu-id" onClick={() => onOpen(f.id)}>
                  {f.vulnId}
                </button>
                {f.aliases.length > 0 && <div className="muted sg-mono">{f.aliases.slice(0, 2).join(', ')}</div>}
              </td>
              <td>
                <span className="sg-mono">
                  {f.component.name}@{f.component.version}
                </span>
                <div className="muted">{f.component.ecosystem}</div>
              </td>
              <td>
                <button type="button" className="link-button" onClick={() => onOpenAsset(f.asset.id)}>
                  {f.asset.name}
                </button>
              </td>
              <td>
                <VulnSeverityBadge severity={f.severity} score={f.score} />
              </td>
              <td className="sg-mono sg-vu-fix">{f.fixedIn ?? <span className="muted">No fix yet</span>}</td>
              <td>
                <span className={`sg-status sg-status--${f.status}`}>{findingStatusLabels[f.status]}</span>
                {f.status === 'accepted' && f.until && (
                  <div className="muted">until {new Date(f.until).toLocaleDateString()}</div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
