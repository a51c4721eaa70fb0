import { useCallback, useState } from 'react';
import type { EventSummary } from '../../../contract/events.ts';
import { CountryChip, countryText } from './CountryChip.tsx';
import { type RuleMessages, ruleText } from './rule-text.ts';
import '../shared/badges.css';
import './EventTable.css';
import { SeverityBadge } from '../shared/SeverityBadge.tsx';

/** Height of one row in pixels: rows are one line (long requests are cut with an ellipsis), so scrolling never reflows. */
export const ROW_HEIGHT = 36;
/**
 * Rows drawn plainly until the table is first scrolled: more than a tall screen holds. The virtualiser (about 10 KB
 * gzip) and the body it draws (VirtualBody.tsx) load on that first scroll, key press or touch, so the page's first
 * JavaScript does not carry them.
 */
export const FIRST_ROWS = 40;

type Body = typeof import('./VirtualBody.tsx').VirtualBody;
/** The virtualised body once loaded: later tables (a new search, another visit) start with it. */
let loadedBody: Body | null = null;

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

export const COLUMNS = ['Time', 'Action', 'Severity', 'Client', 'Request', 'Rules', 'Status'] as const;

/**
 * The event table, virtualised: only the rows in view (plus a margin) are in the DOM, with spacer rows above and
 * below keeping the scroll height, so 100 000 loaded rows scroll as smoothly as 100. Pages load by cursor as the
 * end comes into view. A real `<table>` with aria-rowcount/aria-rowindex, so screen readers know where they are.
 */
/** One event's row. */
export function EventRow({
  event,
  index,
  messages,
  onSelect,
}: {
  event: EventSummary;
  index: number;
  messages: RuleMessages;
  onSelect: (event: EventSummary) => void;
}) {
  const request = `${event.method ?? ''} ${event.host ?? ''}${event.path ?? ''}`.trim();
  const client = [event.ip, event.country && countryText(event.country)].filter(Boolean).join(' — ');
  // An id listed twice (some sources repeat a rule per matched variable) shows once.
  const ruleIds = [...new Set(event.ruleIds)];
  const rules = ruleIds.map((id) => ruleText(id, messages));
  return (
    <tr aria-rowindex={index + 2} style={{ height: ROW_HEIGHT }}>
      <td>
        <button type="button" className="link-button" onClick={() => onSelect(event)}>
          {timeFormat.format(new Date(event.time))}
        </button>
      </td>
      <td>
        <span className={`badge badge--${event.action}`}>{event.action}</span>
      </td>
      <td>
        <SeverityBadge severity={event.severity} />
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
          : ruleIds.map((id, position) => (
              <span key={id} className="event-table__rule">
                {position > 0 && '; '}
                <span className="event-table__rule-id">{id}</span>
                {messages[String(id)] ? ` ${messages[String(id)]}` : ''}
              </span>
            ))}
      </td>
      <td>{event.status ?? '—'}</td>
    </tr>
  );
}

/**
 * The event table. The first rows are drawn as they are; from the first scroll it is virtualised: only the rows in
 * view (plus a margin) are in the DOM, with spacer rows above and below keeping the scroll height, so 100 000 loaded
 * rows scroll as smoothly as 100, and pages load by cursor as the end comes into view. A real `<table>` with
 * aria-rowcount/aria-rowindex, so screen readers know where they are.
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
  // The scrolling element as state: the virtualised body mounts once it exists (a ref would still be empty when the
  // body's first layout effect runs, since a parent's ref is attached after its children's effects).
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const [VirtualBody, setBody] = useState<Body | null>(() => loadedBody);
  const needed = rows.length > FIRST_ROWS || hasMore;
  const wake = useCallback(() => {
    if (VirtualBody || !needed) return;
    void import('./VirtualBody.tsx').then((module) => {
      loadedBody = module.VirtualBody;
      setBody(() => module.VirtualBody);
    });
  }, [VirtualBody, needed]);
  const shown = VirtualBody ? rows.length : Math.min(rows.length, FIRST_ROWS);
  return (
    <>
      <section
        ref={setScroller}
        className="event-table"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to scroll it
        tabIndex={0}
        aria-label="Events, scrollable"
        onScroll={wake}
        onKeyDown={wake}
        onPointerDown={wake}
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
          {VirtualBody && scroller ? (
            <VirtualBody
              rows={rows}
              messages={messages}
              onSelect={onSelect}
              scroller={scroller}
              hasMore={hasMore}
              loading={loading}
              onLoadMore={onLoadMore}
            />
          ) : (
            <tbody>
              {rows.slice(0, FIRST_ROWS).map((event, index) => (
                <EventRow key={event.id} event={event} index={index} messages={messages} onSelect={onSelect} />
              ))}
            </tbody>
          )}
        </table>
      </section>
      <p className="muted event-table__status-line" role="status">
        {loading
          ? `Loading more events… ${rows.length.toLocaleString()} of ${total.toLocaleString()} loaded.`
          : `${rows.length.toLocaleString()} of ${total.toLocaleString()} events loaded${hasMore || rows.length > shown ? '; scroll for more' : ''}.`}
      </p>
    </>
  );
}
