/** A column header that orders a table by its column (descending, as the largest first is what is looked for). */
import './sort-header.css';

interface Props<S extends string> {
  /** The order this column stands for. */
  readonly sort: S;
  /** The table's order now. */
  readonly current: S;
  readonly title: string;
  /** Right-aligned, as numbers are. */
  readonly numeric?: boolean;
  readonly onSort: (sort: S) => void;
}

/** The header's button orders by the column; the column in use says so (aria-sort) and is marked ▾. */
export function SortHeader<S extends string>({ sort, current, title, numeric = false, onSort }: Props<S>) {
  return (
    <th scope="col" className={numeric ? 'sg-num' : undefined} aria-sort={current === sort ? 'descending' : undefined}>
      <button type="button" className="sg-sort" onClick={() => onSort(sort)}>
        {title}
        {current === sort && <span aria-hidden="true"> ▾</span>}
      </button>
    </th>
  );
}
