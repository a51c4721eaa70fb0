import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { EventSummary } from '../../../contract/events.ts';

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
}

/** Short enough for the column, precise to the second; the drawer shows the full time. */
const timeFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

const COLUMNS = ['Time', 'Action', 'Severity', 'Client', 'Request', 'Status', 'Rules'] as const;

/**
 * The event table, virtualised: only the rows in view (plus a margin) are in the DOM, with spacer rows above and
 * below keeping the scroll height, so 100 000 loaded rows scroll as smoothly as 100. Pages load by cursor as the
 * end comes into view. A real `<table>` with aria-rowcount/aria-rowindex, so screen readers know where they are.
 */
export function EventTable({ rows, total, hasMore, loading, onLoadMore, onSelect }: EventTableProps) {
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
            <col className="event-table__time" />
            <col className="event-table__action" />
            <col className="event-table__severity" />
            <col className="event-table__client" />
            <col />
            <col className="event-table__status" />
            <col className="event-table__rules" />
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
                  <td>{event.severity}</td>
                  <td>
                    {event.ip ?? '—'} {event.country ? `(${event.country})` : ''}
                  </td>
                  <td className="event-log__request" title={request}>
                    {request || '—'}
                  </td>
                  <td>{event.status ?? '—'}</td>
                  <td title={event.ruleIds.join(', ')}>{event.ruleIds.join(', ')}</td>
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
