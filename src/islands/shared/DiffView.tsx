import { Fragment } from 'react';
import { type DiffLine, withContext } from './line-diff.ts';
import { TableScroll } from './TableScroll.tsx';
import './diff.css';

/** How a diff is laid out. */
export type DiffLayout = 'unified' | 'split';

interface Props {
  /** Accessible name of the diff, such as "Settings, version 1 to version 2". */
  readonly label: string;
  readonly lines: readonly DiffLine[];
  readonly layout: DiffLayout;
}

const marks: Readonly<Record<DiffLine['kind'], string>> = { same: ' ', removed: '−', added: '+' };
const words: Readonly<Record<DiffLine['kind'], string>> = { same: '', removed: 'removed: ', added: 'added: ' };

/** One line's text cell, with its kind said in words for screen readers. */
function Text({ line }: { line: DiffLine | undefined }) {
  if (!line) return <td className="sg-diff__text sg-diff--empty" />;
  return (
    <td className={`sg-diff__text sg-diff--${line.kind}`}>
      <span aria-hidden="true">{marks[line.kind]} </span>
      <span className="visually-hidden">{words[line.kind]}</span>
      {line.text}
    </td>
  );
}

/** Pairs the removed and added lines of a run for the side-by-side layout. */
function rows(lines: readonly DiffLine[]): [DiffLine | undefined, DiffLine | undefined][] {
  const out: [DiffLine | undefined, DiffLine | undefined][] = [];
  let removed: DiffLine[] = [];
  let added: DiffLine[] = [];
  const flush = (): void => {
    for (let at = 0; at < Math.max(removed.length, added.length); at += 1) out.push([removed[at], added[at]]);
    removed = [];
    added = [];
  };
  for (const line of lines) {
    if (line.kind === 'removed') removed.push(line);
    else if (line.kind === 'added') added.push(line);
    else {
      flush();
      out.push([line, line]);
    }
  }
  flush();
  return out;
}

/** A line diff, unified or side by side, with unchanged stretches folded; it scrolls inside its own box. */
export function DiffView({ label, lines, layout }: Props) {
  const parts = withContext(lines);
  const columns = layout === 'unified' ? 3 : 4;
  return (
    <TableScroll className="sg-diff" label={label}>
      <table className="sg-diff__table">
        <thead>
          {layout === 'unified' ? (
            <tr>
              <th scope="col">Old</th>
              <th scope="col">New</th>
              <th scope="col">Line</th>
            </tr>
          ) : (
            <tr>
              <th scope="col">Old</th>
              <th scope="col">Old text</th>
              <th scope="col">New</th>
              <th scope="col">New text</th>
            </tr>
          )}
        </thead>
        <tbody>
          {parts.map((part, index) =>
            part.kind !== 'lines' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts have no identity beyond their place
              <tr key={index} className="sg-diff__gap">
                <td colSpan={columns}>
                  {part.kind === 'gap'
                    ? `… ${part.count} unchanged line${part.count === 1 ? '' : 's'}`
                    : `… ${part.count} more line${part.count === 1 ? '' : 's'} not shown`}
                </td>
              </tr>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts have no identity beyond their place
              <Fragment key={index}>
                {layout === 'unified'
                  ? part.lines.map((line) => (
                      <tr key={`${line.oldNumber}-${line.newNumber}`}>
                        <td className="sg-diff__number">{line.oldNumber ?? ''}</td>
                        <td className="sg-diff__number">{line.newNumber ?? ''}</td>
                        <Text line={line} />
                      </tr>
                    ))
                  : rows(part.lines).map(([left, right]) => (
                      <tr key={`${left?.oldNumber}-${right?.newNumber}`}>
                        <td className="sg-diff__number">{left?.oldNumber ?? ''}</td>
                        <Text line={left} />
                        <td className="sg-diff__number">{right?.newNumber ?? ''}</td>
                        <Text line={right?.kind === 'removed' ? undefined : right} />
                      </tr>
                    ))}
              </Fragment>
            ),
          )}
        </tbody>
      </table>
    </TableScroll>
  );
}
