import type { Asset } from '../../../../contract/assets.ts';
import { dateTime } from '../../shared/format.ts';
import { TableScroll } from '../../shared/TableScroll.tsx';
import { FindingCounts } from './FindingCounts.tsx';

interface Props {
  readonly assets: readonly Asset[];
  readonly onOpen: (assetId: string) => void;
}

/** The space's assets: name (opens its page), kind, environment, tags, components, open findings, last assessed. */
export function AssetsTable({ assets, onOpen }: Props) {
  return (
    <TableScroll label="Assets table">
      <table className="data sg-va-table" aria-label="Assets">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
            <th scope="col">Environment</th>
            <th scope="col">Tags</th>
            <th scope="col" className="sg-num">
              Components
            </th>
            <th scope="col">Open findings</th>
            <th scope="col">Last assessed</th>
          </tr>
        </thead>
        <tbody>
          {assets.map((asset) => (
            <tr key={asset.id}>
              <th scope="row">
                <button type="button" className="link-button" onClick={() => onOpen(asset.id)}>
                  {asset.name}
                </button>
              </th>
              <td>{asset.kind === 'application' ? 'Application' : 'Host'}</td>
              <td>{asset.environment ?? '—'}</td>
              <td>{asset.tags.length > 0 ? asset.tags.join(', ') : '—'}</td>
              <td className="sg-num">
                {asset.components.toLocaleString('en')}
                {asset.notAssessed > 0 && (
                  <span className="sg-va-note">{asset.notAssessed.toLocaleString('en')} not assessed</span>
                )}
              </td>
              <td>
                <FindingCounts counts={asset.findings} label={`Open findings of ${asset.name} by severity`} />
              </td>
              <td className="sg-nowrap">{asset.lastAssessedAt ? dateTime(asset.lastAssessedAt) : 'not yet'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
