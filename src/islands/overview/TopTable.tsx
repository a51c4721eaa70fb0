import type { ReactNode } from 'react';
import { TableScroll } from '../shared/TableScroll.tsx';

/**
 * One of the overview's top-ten tables: each value links to its events; `note` adds a line under it, `actions` what
 * can be done about the value (block an address), in a last column.
 */
export function TopTable(props: {
  readonly id: string;
  readonly title: string;
  readonly column: string;
  readonly rows: readonly { readonly value: string; readonly count: number }[];
  readonly link: (value: string) => string;
  readonly note?: (value: string) => string | undefined;
  readonly actions?: ((value: string) => ReactNode) | undefined;
}) {
  const { id, title, column, rows, link, note, actions } = props;
  return (
    <section className="card panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <TableScroll label={`${title} table`}>
        <table className="data">
          <thead>
            <tr>
              <th scope="col">{column}</th>
              <th scope="col">Events</th>
              {actions && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, 10).map((row) => {
              const description = note?.(row.value);
              return (
                <tr key={row.value}>
                  <td>
                    <a href={link(row.value)}>{row.value}</a>
                    {description && <span className="overview__rule-message">{description}</span>}
                  </td>
                  <td>
                    <a href={link(row.value)}>{row.count.toLocaleString('en')}</a>
                  </td>
                  {actions && <td className="overview__act">{actions(row.value)}</td>}
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
