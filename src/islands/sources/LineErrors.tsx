import { dateTime } from '../shared/format.ts';
import { TableScroll } from '../shared/TableScroll.tsx';

interface LineErrorsProps {
  readonly errors: readonly { readonly line: number; readonly message: string; readonly at?: string }[];
  readonly label: string;
  /** Keep the caption for screen readers only, when a heading right above says the same. */
  readonly hideCaption?: boolean;
}

/** Refused lines: line number, reason and, for stored errors, when. */
export function LineErrors({ errors, label, hideCaption = false }: LineErrorsProps) {
  const timed = errors.some((error) => error.at !== undefined);
  return (
    <TableScroll label={`${label} table`}>
      <table className="data sg-compact">
        <caption className={hideCaption ? 'visually-hidden' : 'sg-caption'}>{label}</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Reason</th>
            {timed && <th scope="col">Time</th>}
          </tr>
        </thead>
        <tbody>
          {errors.map((error, index) => (
            // A batch may refuse the same line number more than once over time.
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id and never reorder
            <tr key={index}>
              <th scope="row">{error.line}</th>
              <td>{error.message}</td>
              {timed && <td className="sg-nowrap">{error.at ? dateTime(error.at) : '—'}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
