import type { MouseEvent } from 'react';
import type { DiscoverSort } from '../../../contract/constants/waf.ts';
import { isProtectedRule } from '../../../contract/crs.ts';
import type { DiscoverAnswer, DiscoverItem } from '../../../contract/waf.ts';
import type { EventLogView } from '../shared/event-log-url.ts';
import { dateTime } from '../shared/format.ts';
import type { RemedyDraft } from '../shared/RemedyDialog.tsx';
import { SortHeader } from '../shared/SortHeader.tsx';
import { Sparkline } from '../shared/Sparkline.tsx';
import { TableScroll } from '../shared/TableScroll.tsx';
import { groupLinks } from './group-links.ts';

interface Props {
  readonly spaceId: string;
  readonly answer: DiscoverAnswer;
  /** The groups shown: the answer's, then those of the pages loaded after it. */
  readonly items: readonly DiscoverItem[];
  /** The view the answer was asked with: its query and range go into each row's links. */
  readonly view: EventLogView;
  readonly sort: DiscoverSort;
  readonly onSort: (sort: DiscoverSort) => void;
  /** Opens the remedy dialog from the row's button (the focus goes back to it). */
  readonly onRemedy: (remedy: RemedyDraft, opener: HTMLElement) => void;
}

const keyTitles = { ip: 'Client IP', rule: 'Rule', path: 'Path', country: 'Country' } as const;
const sortable: readonly { sort: DiscoverSort; title: string; numeric: boolean }[] = [
  { sort: 'count', title: 'Events', numeric: true },
  { sort: 'blocked', title: 'Blocked', numeric: true },
  { sort: 'ips', title: 'IPs', numeric: true },
];

/** The remedies a group suggests: block its IP, or exclude its rule on a path (the other half asked in the dialog). */
function remediesOf(groupBy: DiscoverAnswer['groupBy'], item: DiscoverItem): { label: string; draft: RemedyDraft }[] {
  if (groupBy === 'ip') return [{ label: 'Block IP', draft: { kind: 'block-ip', ip: item.key } }];
  if (groupBy === 'rule' && !isProtectedRule(Number(item.key)))
    return [{ label: 'Add exclusion', draft: { kind: 'exclude-rule', ruleId: Number(item.key), path: '' } }];
  if (groupBy === 'path') {
    const rule = item.topRule && !isProtectedRule(item.topRule.id) ? item.topRule.id : null;
    return [{ label: 'Add exclusion', draft: { kind: 'exclude-rule', ruleId: rule, path: item.key } }];
  }
  return [];
}

/** A time short enough for a table cell, e.g. "21 Nov, 14:03", or only "14:03" (the full one is its tooltip). */
function shortTime(iso: string, withDay: boolean): string {
  const day = withDay ? ({ day: 'numeric', month: 'short' } as const) : {};
  return new Date(iso).toLocaleString(undefined, { ...day, hour: '2-digit', minute: '2-digit' });
}

/** The groups of a discover answer: counts, when seen, top rule, sparkline, links and remedies; sortable columns. */
export function DiscoverTable({ spaceId, answer, items, view, sort, onSort, onRemedy }: Props) {
  const header = (column: { sort: DiscoverSort; title: string; numeric: boolean }) => (
    <SortHeader key={column.sort} {...column} current={sort} onSort={onSort} />
  );
  const range = `${dateTime(answer.from)} to ${dateTime(answer.to)}`;
  return (
    <TableScroll label="Groups table">
      <table className="data sg-waf-table" aria-label="Groups">
        <thead>
          <tr>
            <th scope="col">{keyTitles[answer.groupBy]}</th>
            {sortable.map(header)}
            {header({ sort: 'lastSeen', title: 'First – last seen', numeric: false })}
            <th scope="col">Top rule</th>
            <th scope="col">Over time</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const links = groupLinks(spaceId, view, answer.groupBy, item.key);
            return (
              <tr key={item.key}>
                <th scope="row" className={answer.groupBy === 'path' ? 'sg-waf-key sg-waf-key--path' : 'sg-waf-key'}>
                  <a href={links.events} title="Show these events in the event log">
                    {item.key}
                  </a>
                </th>
                <td className="sg-num">{item.count.toLocaleString('en')}</td>
                <td className="sg-num">{item.blocked.toLocaleString('en')}</td>
                <td className="sg-num">{item.distinctIps.toLocaleString('en')}</td>
                <td>
                  <time dateTime={item.firstSeen} title={dateTime(item.firstSeen)}>
                    {shortTime(item.firstSeen, true)}
                  </time>
                  {' – '}
                  <time dateTime={item.lastSeen} title={dateTime(item.lastSeen)}>
                    {shortTime(
                      item.lastSeen,
                      new Date(item.lastSeen).toDateString() !== new Date(item.firstSeen).toDateString(),
                    )}
                  </time>
                </td>
                <td>{item.topRule ? `${item.topRule.id} (${item.topRule.count.toLocaleString('en')})` : '—'}</td>
                <td>
                  <Sparkline
                    className="sg-waf-spark"
                    width={80}
                    height={24}
                    series={[item.sparkline]}
                    label={`Events of ${item.key} from ${range}, ${item.sparkline.length} buckets of ${Math.round(answer.bucketSeconds / 60)} min, at most ${Math.max(...item.sparkline)} in one`}
                  />
                </td>
                <td>
                  <div className="sg-waf-actions">
                    <a
                      className="button secondary"
                      href={links.alertRule}
                      aria-label={`Create alert rule for ${item.key}`}
                    >
                      Alert rule
                    </a>
                    {remediesOf(answer.groupBy, item).map((remedy) => (
                      <button
                        key={remedy.label}
                        type="button"
                        className="button secondary"
                        aria-label={`${remedy.label} ${item.key}`}
                        onClick={(event: MouseEvent<HTMLButtonElement>) => onRemedy(remedy.draft, event.currentTarget)}
                      >
                        {remedy.label}
                      </button>
                    ))}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
