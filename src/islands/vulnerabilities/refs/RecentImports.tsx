import type { VulnImport } from '../../../../contract/vuln-refs.ts';
import { dateTime } from '../../shared/format.ts';
import { TableScroll } from '../../shared/TableScroll.tsx';
import { ColumnHeads } from './ColumnHeads.tsx';

const COLUMNS = ['Started', 'File', 'By', 'Status', 'Files', 'Result'] as const;

const counts = (item: VulnImport) =>
  item.status === 'failed'
    ? (item.error ?? 'failed')
    : `${item.imported} new, ${item.updated} updated, ${item.unchanged} unchanged, ${item.withdrawn} withdrawn, ${item.refusedCount} refused`;

/** The space's newest imports: when, who, which file, how far, what they did. */
export function RecentImports({ items }: { readonly items: readonly VulnImport[] }) {
  if (items.length === 0) return null;
  return (
    <details className="sg-vr-recent">
      <summary>Recent imports ({items.length})</summary>
      <TableScroll label="Recent imports">
        <table className="data">
          <caption className="visually-hidden">Recent imports</caption>
          <ColumnHeads names={COLUMNS} />
          <tbody>
            {items.map((item) => (
              <tr key={item.id}>
                <td className="sg-nowrap">{dateTime(item.createdAt)}</td>
                <td className="sg-mono">{item.fileName ?? '(no name)'}</td>
                <td>{item.startedByName ?? '—'}</td>
                <td>{item.status}</td>
                <td className="sg-num">
                  {item.filesRead} of {item.filesTotal}
                </td>
                <td>{item.status === 'done' || item.status === 'failed' ? counts(item) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </details>
  );
}
