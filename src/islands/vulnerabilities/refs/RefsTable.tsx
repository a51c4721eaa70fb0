import type { VulnRefSummary } from '../../../../contract/vuln-refs.ts';
import { dateOnly } from '../../shared/format.ts';
import { TableScroll } from '../../shared/TableScroll.tsx';
import { VulnSeverityBadge } from '../VulnSeverityBadge.tsx';
import { ColumnHeads } from './ColumnHeads.tsx';

const COLUMNS = ['Id', 'Aliases', 'Summary', 'Ecosystems', 'Severity', 'Modified'] as const;

interface Props {
  readonly items: readonly VulnRefSummary[];
  /** The link of a record's detail (the screen's URL with `?id=`). */
  readonly hrefOf: (id: string) => string;
  readonly onOpen: (id: string) => void;
}

/**
 * The records of one page: id (opens the detail), aliases, summary, ecosystems, severity, modified ("unknown" when
 * the record does not know it, as Go's files say); withdrawn marked.
 */
export function RefsTable({ items, hrefOf, onOpen }: Props) {
  return (
    <TableScroll label="Records">
      <table className="data sg-vr-table">
        <caption className="visually-hidden">Records of the library</caption>
        <ColumnHeads names={COLUMNS} />
        <tbody>
          {items.map((item) => (
            <tr key={item.id} className={item.withdrawn ? 'sg-vr-withdrawn' : undefined}>
              <th scope="row">
                <a
                  className="sg-mono"
                  href={hrefOf(item.id)}
                  onClick={(event) => {
                    if (event.metaKey || event.ctrlKey || event.shiftKey) return;
                    event.preventDefault();
                    onOpen(item.id);
                  }}
                >
                  {item.id}
                </a>
                {item.withdrawn && (
                  <>
                    {' '}
                    <span className="sg-vr-tag">withdrawn</span>
                  </>
                )}
              </th>
              <td className="sg-mono">{item.aliases.join(', ')}</td>
              <td>{item.summary}</td>
              <td>{item.ecosystems.join(', ')}</td>
              <td>
                <VulnSeverityBadge severity={item.severity} score={item.score} />
              </td>
              <td className="sg-nowrap">{item.modified ? dateOnly(item.modified) : 'unknown'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
