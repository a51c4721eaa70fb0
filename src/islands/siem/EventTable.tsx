import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { EventSummary } from '../../../contract/events.ts';
import { CountryChip, countryText } from './CountryChip.tsx';
import { type RuleMessages, ruleText } from './rule-text.ts';
import '../shared/badges.css';
import './EventTable.css';

/** Height of one row in pixels: rows are one line (long requests are cut with an ellipsis), so scrolling never reflows. */
export const ROW_HEIGHT = 36;
/** How close to the end of the loaded rows (in rows) the next page is asked for. */
const PREFETCH_ROWS = 60;

export interface EventTableProps {
  /** The rows loaded so far, newest first. */
  readonly rows: readonly EventSummary[];
  /** How many events match in all (for the row count read out and the status line). */
  readonly total: number;
  /** Whether the server has more rows after the loaded ones. */
  readonly hasMore: boolean;
  /** Whether a page is being fetched now. */
  readonly loading: boolean;
  /** Asks for the next page (called once per approach to the end; the caller ignores calls while loading). */
  readonly onLoadMore: () => void;
  readonly onSelect: (event: EventSummary) => void;
  /** Rule id → its short CRS message, shown after each id; ids without one show alone. */
  readonly messages?: RuleMessages;
}

const NO_MESSAGES: RuleMessages = {};

/** Short enough for the column, precise to the second; the drawer shows the full time. */
const timeFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  hourCycle: 'h23',
  minute: '2-digit',
  second: '2-digit',
});

const COLUMNS = ['Time', 'Action', 'Severity', 'Client', 'Request', 'Rules', 'Status'] as const;

/**
 * The event table, virtualised: only the rows in view (plus a margin) are in the DOM, with spacer rows above and
 * below keeping the scroll height, so 100 000 loaded rows scroll as smoothly as 100. Pages load by cursor as the
 * end comes into view. A real `<table>` with aria-rowcount/aria-rowindex, so screen readers know where they are.
 */
export function EventTable({
  rows,
  total,
  hasMore,
  loading,
  onLoadMore,
  onSelect,
  messages = NO_MESSAGES,
}: EventTableProps) {
  const scroller = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
    // Before layout (and under jsdom) assume a viewport so the first rows render at once.
    initialRect: { width: 960, height: 16 * ROW_HEIGHT },
  });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1)?.index ?? -1;

  useEffect(() => {
    if (hasMore && !loading && last >= rows.length - PREFETCH_ROWS) onLoadMore();
  }, [last, rows.length, hasMore, loading, onLoadMore]);

  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <>
      <section
        ref={scroller}
        className="event-table"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to scroll it
        tabIndex={0}
        aria-label="Events, scrollable"
      >
        <table className="data event-table__table" aria-rowcount={total + 1}>
          <colgroup>
            <col className="event-table__col-time" />
            <col className="event-table__col-action" />
            <col className="event-table__col-severity" />
            <col className="event-table__col-client" />
            <col className="event-table__col-request" />
            <col className="event-table__col-rules" />
            <col className="event-table__col-status" />
          </colgroup>
          <thead>
            <tr aria-rowindex={1}>
              {COLUMNS.map((name) => (
                <th key={name} scope="col">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {before > 0 && (
              <tr className="event-table__spacer">
                <td colSpan={COLUMNS.length} style={{ height: before }} />
              </tr>
            )}
            {items.map((item) => {
              const event = rows[item.index] as EventSummary;
              const request = `${event.method ?? ''} ${event.host ?? ''}${event.path ?? ''}`.trim();
              const client = [event.ip, event.country && countryText(event.country)].filter(Boolean).join(' — ');
              // An id listed twice (some sources repeat a rule per matched variable) shows once.
              const ruleIds = [...new Set(event.ruleIds)];
              const rules = ruleIds.map((id) => ruleText(id, messages));
              return (
                <tr key={event.id} aria-rowindex={item.index + 2} style={{ height: ROW_HEIGHT }}>
                  <td>
                    <button type="button" className="link-button" onClick={() => onSelect(event)}>
                      {timeFormat.format(new Date(event.time))}
                    </button>
                  </td>
                  <td>
                    <span className={`badge badge--${event.action}`}>{event.action}</span>
                  </td>
                  <td>
                    <span className={`sg-sev sg-sev--${event.severity}`}>{event.severity}</span>
                  </td>
                  <td title={client || undefined}>
                    <span className="event-table__ip">{event.ip ?? '—'}</span>
                    {event.country && (
                      <>
                        {' '}
                        <CountryChip code={event.country} />
                      </>
                    )}
                  </td>
                  <td className="event-log__request" title={request || undefined}>
                    {request || '—'}
                  </td>
                  <td title={rules.join('\n') || undefined}>
                    {rules.length === 0
                      ? '—'
                      : ruleIds.map((id, index) => (
                          <span key={id} className="event-table__rule">
                            {index > 0 && '; '}
                            <span className="event-table__rule-id">{id}</span>
                            {messages[String(id)] ? ` ${messages[String(id)]}` : ''}
                          </span>
                        ))}
                  </td>
                  <td>{event.status ?? '—'}</td>
                </tr>
              );
            })}
            {after > 0 && (
              <tr className="event-table__spacer">
                <td colSpan={COLUMNS.length} style={{ height: after }} />
              </tr>
            )}
          </tbody>
        </table>
      </section>
      <p className="muted event-table__status-line" role="status">
        {loading
          ? `Loading more events… ${rows.length.toLocaleString()} of ${total.toLocaleString()} loaded.`
          : `${rows.length.toLocaleString()} of ${total.toLocaleString()} events loaded${hasMore ? '; scroll for more' : ''}.`}
      </p>
    </>
  );
}
