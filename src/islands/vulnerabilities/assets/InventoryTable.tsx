import { useState } from 'react';
import type { InventoryComponent } from '../../../../contract/assets.ts';
import { TableScroll } from '../../shared/TableScroll.tsx';

interface Props {
  /** The table's name, unique on the page ("Components of shop"). */
  readonly label: string;
  readonly components: readonly InventoryComponent[];
  /** Shows the findings column with a button to the asset's findings (the current inventory only). */
  readonly onShowFindings?: (() => void) | undefined;
}

const PAGE = 100;

/** An inventory's components, filtered by text and shown a hundred at a time; those not assessed are marked. */
export function InventoryTable({ label, components, onShowFindings }: Props) {
  const [filter, setFilter] = useState('');
  const [shown, setShown] = useState(PAGE);
  const needle = filter.trim().toLowerCase();
  const matching = needle
    ? components.filter((c) => `${c.ecosystem} ${c.name} ${c.version} ${c.purl ?? ''}`.toLowerCase().includes(needle))
    : components;
  if (components.length === 0) return <p className="sg-empty">No components in this inventory.</p>;
  return (
    <div className="sg-va-inventory">
      <div className="field sg-va-filter">
        <label>
          Filter {label.toLowerCase()}
          <input type="search" value={filter} onChange={(event) => setFilter(event.currentTarget.value)} />
        </label>
      </div>
      <p className="muted" role="status">
        {matching.length === components.length
          ? `${components.length.toLocaleString('en')} components`
          : `${matching.length.toLocaleString('en')} of ${components.length.toLocaleString('en')} components`}
      </p>
      <TableScroll label={`${label} table`}>
        <table className="data sg-va-table" aria-label={label}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Version</th>
              <th scope="col">Ecosystem</th>
              {onShowFindings && (
                <th scope="col" className="sg-num">
                  Findings
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {matching.slice(0, shown).map((c) => (
              <tr key={c.key} className={c.assessed ? undefined : 'sg-va-unassessed'}>
                <th scope="row" className="sg-mono">
                  {c.name}
                  {c.purl && <span className="sg-va-purl">{c.purl}</span>}
                </th>
                <td className="sg-mono">{c.version}</td>
                <td>
                  {c.ecosystem}
                  {c.note && <span className="sg-va-note">{c.note}</span>}
                </td>
                {onShowFindings && (
                  <td className="sg-num">
                    {c.findings > 0 ? (
                      <button type="button" className="link-button" onClick={onShowFindings}>
                        {c.findings.toLocaleString('en')}
                        <span className="visually-hidden">
                          {' '}
                          findings of {c.name} {c.version}: show the asset's findings
                        </span>
                      </button>
                    ) : (
                      '0'
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {matching.length > shown && (
        <button type="button" className="button secondary" onClick={() => setShown(shown + PAGE)}>
          Show {Math.min(PAGE, matching.length - shown)} more
        </button>
      )}
    </div>
  );
}
