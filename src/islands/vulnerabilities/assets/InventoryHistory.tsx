import { useState } from 'react';
import type { Inventory, InventoryHistoryEntry, SbomMeta } from '../../../../contract/assets.ts';
import { errorMessage } from '../../../lib/api.ts';
import { loadInventory } from '../../../stores/assets.ts';
import { Alert } from '../../shared/Alert.tsx';
import { dateTime } from '../../shared/format.ts';
import { TableScroll } from '../../shared/TableScroll.tsx';
import { InventoryTable } from './InventoryTable.tsx';

interface Props {
  readonly spaceId: string;
  readonly assetId: string;
  readonly history: readonly InventoryHistoryEntry[];
}

/** Where an inventory came from, in a few words: "SBOM shop.cdx.json (CycloneDX 1.5)" or "typed in". */
export function sourceText(source: string, sbom: SbomMeta | null): string {
  if (source !== 'sbom' || !sbom) return 'typed in';
  return `SBOM ${sbom.fileName ? `${sbom.fileName} ` : ''}(CycloneDX ${sbom.specVersion})`;
}

/** The previous inventories of an asset, newest first; one of them can be opened to read its components. */
export function InventoryHistory({ spaceId, assetId, history }: Props) {
  const [open, setOpen] = useState<Inventory | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  if (history.length === 0)
    return <p className="muted">No previous inventories: a new SBOM or list keeps the current one here.</p>;
  const show = async (version: number): Promise<void> => {
    setFailure(null);
    try {
      setOpen(await loadInventory(spaceId, assetId, version));
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };
  return (
    <>
      {failure && <Alert tone="error">{failure}</Alert>}
      <TableScroll label="Inventory history table">
        <table className="data sg-va-table" aria-label="Inventory history">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Source</th>
              <th scope="col" className="sg-num">
                Components
              </th>
              <th scope="col">Replaced</th>
            </tr>
          </thead>
          <tbody>
            {history.map((entry) => (
              <tr key={entry.version}>
                <th scope="row">
                  <button
                    type="button"
                    className="link-button"
                    aria-expanded={open?.version === entry.version}
                    onClick={() => (open?.version === entry.version ? setOpen(null) : void show(entry.version))}
                  >
                    Version {entry.version}
                  </button>
                </th>
                <td>{sourceText(entry.source, entry.sbom)}</td>
                <td className="sg-num">{entry.components.toLocaleString('en')}</td>
                <td className="sg-nowrap">
                  {dateTime(entry.replacedAt)}
                  {entry.replacedBy.name ? ` by ${entry.replacedBy.name}` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {open && (
        <section className="sg-va-old" aria-label={`Inventory version ${open.version}`}>
          <h4>Inventory version {open.version}</h4>
          <InventoryTable label={`Components of version ${open.version}`} components={open.components} />
        </section>
      )}
    </>
  );
}
