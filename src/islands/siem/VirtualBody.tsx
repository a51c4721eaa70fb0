/**
 * The event table's virtualised body, loaded with the virtualiser on the table's first scroll, key press or touch:
 * only the rows in view (plus a margin) are in the DOM, between spacer rows that keep the scroll height, and the next
 * page is asked for as the end comes into view.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect } from 'react';
import type { EventSummary } from '../../../contract/events.ts';
import { COLUMNS, EventRow, ROW_HEIGHT } from './EventTable.tsx';
import type { RuleMessages } from './rule-text.ts';

/** How close to the end of the loaded rows (in rows) the next page is asked for. */
const PREFETCH_ROWS = 60;

export interface VirtualBodyProps {
  readonly rows: readonly EventSummary[];
  readonly messages: RuleMessages;
  readonly onSelect: (event: EventSummary) => void;
  readonly scroller: HTMLElement;
  readonly hasMore: boolean;
  readonly loading: boolean;
  readonly onLoadMore: () => void;
}

/** The rows in view (plus a margin) between spacer rows that keep the scroll height; asks for the next page near the end. */
export function VirtualBody({ rows, messages, onSelect, scroller, hasMore, loading, onLoadMore }: VirtualBodyProps) {
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
    // It takes over from the plain rows after a scroll: start where the table is scrolled to.
    initialOffset: () => scroller.scrollTop,
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
    <tbody>
      {before > 0 && (
        <tr className="event-table__spacer">
          <td colSpan={COLUMNS.length} style={{ height: before }} />
        </tr>
      )}
      {items.map((item) => {
        const event = rows[item.index] as EventSummary;
        return <EventRow key={event.id} event={event} index={item.index} messages={messages} onSelect={onSelect} />;
      })}
      {after > 0 && (
        <tr className="event-table__spacer">
          <td colSpan={COLUMNS.length} style={{ height: after }} />
        </tr>
      )}
    </tbody>
  );
}
