import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import type { EventSummary } from '../../../contract/events.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { JsonViewer } from '../json-viewer/JsonViewer.tsx';
import { LeafletMap } from '../map/LeafletMap.tsx';
import { Alert } from '../shared/Alert.tsx';
import { CopyButton } from '../shared/CopyButton.tsx';
import { CountryChip, countryText } from './CountryChip.tsx';
import { centroidOf, loadOutlines } from './country-centroid.ts';
import { type RuleMessages, ruleText } from './rule-text.ts';
import { type RawRecord, useEventDetail } from './use-event-detail.ts';
import '../shared/badges.css';
import './EventTable.css';
import './EventDrawer.css';
import { isProtectedRule, isScoringRule } from '../../../contract/crs.ts';
import { RemedyActions } from '../shared/RemedyActions.tsx';
import { RetryButton } from '../shared/RetryButton.tsx';
import { SeverityBadge } from '../shared/SeverityBadge.tsx';

/** Narrows the log's query by one `field:value` (a query-language field), or with `exclude` leaves that value out. */
export type FilterHandler = (field: string, value: string, exclude: boolean) => void;

interface Props {
  readonly spaceId: string;
  /** The row opened: its fields show at once, the raw record is fetched. */
  readonly event: EventSummary;
  readonly onClose: () => void;
  /** Rule id → its short CRS message, shown after each id. */
  readonly messages?: RuleMessages;
  /** Given, each filterable value gets "Filter for" and "Exclude" buttons that call it. */
  readonly onFilter?: FilterHandler;
  /** Given, a link to the log with this event open (root-relative or absolute), and a button copying it. */
  readonly permalink?: string;
}

const NO_MESSAGES: RuleMessages = {};

/** One value the query can filter by: the query field, its value there, and how the buttons name it. */
interface Filterable {
  readonly field: string;
  readonly value: string;
  readonly label: string;
}

/** The "+" and "−" buttons after a value, with names that say what they do. */
function FilterButtons({ of, onFilter }: { of: Filterable; onFilter: FilterHandler | undefined }) {
  if (!onFilter) return null;
  const filterName = `Filter for ${of.label}`;
  const excludeName = `Exclude ${of.label}`;
  return (
    <span className="event-drawer__filter">
      <button
        type="button"
        className="event-drawer__filter-button"
        aria-label={filterName}
        title={filterName}
        onClick={() => onFilter(of.field, of.value, false)}
      >
        +
      </button>
      <button
        type="button"
        className="event-drawer__filter-button"
        aria-label={excludeName}
        title={excludeName}
        onClick={() => onFilter(of.field, of.value, true)}
      >
        −
      </button>
    </span>
  );
}

/** One row of the fields list: a value with its filter, or (rules, tags) a list of values each with its own. */
interface Field {
  readonly name: string;
  readonly value: ReactNode;
  readonly filter?: Filterable | undefined;
  readonly list?: ReadonlyArray<{ readonly key: string; readonly value: ReactNode; readonly filter: Filterable }>;
}

/** The event as JSON for the clipboard: the row's fields, and the raw record once loaded. */
function eventJson(event: EventSummary, record: RawRecord): string {
  return JSON.stringify(record.state === 'ready' ? { ...event, raw: record.raw } : event, null, 2);
}

/** The permalink made absolute for the clipboard (it may be root-relative). */
function absolute(link: string): string {
  try {
    return new URL(link, location.href).href;
  } catch {
    return link;
  }
}

/** The fields of the event, in the order the drawer lists them. */
function fieldsOf(event: EventSummary, messages: RuleMessages): Field[] {
  const request = `${event.method ?? ''} ${event.host ?? ''}${event.path ?? ''}`.trim();
  return [
    { name: 'Time', value: new Date(event.time).toLocaleString() },
    {
      name: 'Action',
      value: <span className={`badge badge--${event.action}`}>{event.action}</span>,
      filter: { field: 'action', value: event.action, label: `action ${event.action}` },
    },
    {
      name: 'Severity',
      value: <SeverityBadge severity={event.severity} />,
      filter: { field: 'severity', value: event.severity, label: `severity ${event.severity}` },
    },
    {
      name: 'Client IP',
      value: event.ip ?? '—',
      filter: event.ip ? { field: 'ip', value: event.ip, label: `client IP ${event.ip}` } : undefined,
    },
    {
      name: 'Country',
      value: event.country ? <CountryChip code={event.country} /> : 'unknown',
      filter: event.country
        ? { field: 'country', value: event.country, label: `country ${countryText(event.country)}` }
        : undefined,
    },
    { name: 'Request', value: request || '—' },
    {
      name: 'Host',
      value: event.host ?? '—',
      filter: event.host ? { field: 'host', value: event.host, label: `host ${event.host}` } : undefined,
    },
    {
      name: 'Status',
      value: event.status === null ? '—' : String(event.status),
      filter:
        event.status === null
          ? undefined
          : { field: 'status', value: String(event.status), label: `status ${event.status}` },
    },
    {
      name: 'Rules',
      value: '—',
      list: [...new Set(event.ruleIds)].map((id) => ({
        key: String(id),
        value: <span className="event-drawer__rule">{ruleText(id, messages)}</span>,
        filter: { field: 'rule', value: String(id), label: `rule ${id}` },
      })),
    },
    {
      name: 'Tags',
      value: '—',
      list: [...new Set(event.tags)].map((tag) => ({
        key: tag,
        value: tag,
        filter: { field: 'tag', value: tag, label: `tag ${tag}` },
      })),
    },
    { name: 'Message', value: event.message ?? '—' },
    { name: 'User agent', value: event.userAgent ?? '—' },
  ];
}

/** Why the raw record could not be shown, in words specific to it. */
function failureOf(error: unknown): string {
  if (error instanceof ApiError && error.status === 404) {
    return 'This event is no longer stored, so its raw record cannot be shown.';
  }
  return `The raw record could not be loaded: ${errorMessage(error)}`;
}

/** The raw record's part of the drawer: loading, the JSON viewer, or the failure with Retry. */
function RawRecordView({ record, onRetry }: { record: RawRecord; onRetry: () => void }) {
  if (record.state === 'loading') {
    return (
      <p className="muted" role="status">
        Loading the raw record…
      </p>
    );
  }
  if (record.state === 'error') {
    return (
      <Alert tone="error">
        <div className="row">
          <span>{failureOf(record.error)}</span>
          <RetryButton onRetry={onRetry} />
        </div>
      </Alert>
    );
  }
  return <JsonViewer data={record.raw} label="Raw record" expandDepth={2} />;
}

/**
 * One event in a side panel: the fields of its row at once (each filterable value with "Filter for" and "Exclude"),
 * copy as JSON and a permalink, the client's country on the map, and the raw record (which the page's rows leave
 * out) in the JSON viewer once fetched.
 */
export function EventDrawer({ spaceId, event, onClose, messages = NO_MESSAGES, onFilter, permalink }: Props) {
  const [where, setWhere] = useState<[number, number] | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const rawHeading = useRef<HTMLHeadingElement>(null);
  const { record, retry } = useEventDetail(spaceId, event.id);
  // Focus goes to the drawer once, when it opens (not each time the screen behind it renders).
  useEffect(() => {
    heading.current?.focus();
  }, []);
  useEffect(() => {
    const close = (key: KeyboardEvent): void => {
      if (key.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', close);
    return () => document.removeEventListener('keydown', close);
  }, [onClose]);
  useEffect(() => {
    if (!event.country) return;
    void loadOutlines().then((features) => setWhere(centroidOf(features, event.country ?? '')));
  }, [event.country]);
  const json = useMemo(() => eventJson(event, record), [event, record]);
  const fields = useMemo(() => fieldsOf(event, messages), [event, messages]);
  return (
    <aside className="card event-drawer" aria-labelledby="event-drawer-title">
      <div className="row event-drawer__head">
        <h2 id="event-drawer-title" tabIndex={-1} ref={heading}>
          Event {event.id.slice(0, 8)}
        </h2>
        <button type="button" className="button secondary" onClick={onClose}>
          Close
        </button>
      </div>
      <div className="row event-drawer__actions">
        <CopyButton text={json} label="Copy JSON" />
        {permalink && (
          <>
            <a className="button secondary" href={permalink}>
              Permalink
            </a>
            <CopyButton text={absolute(permalink)} label="Copy link" />
          </>
        )}
        <RemedyActions
          spaceId={spaceId}
          ip={event.ip}
          ruleId={event.ruleIds.find((id) => !isProtectedRule(id) && !isScoringRule(id)) ?? null}
          path={event.path}
          firewallId={event.firewallId}
        />
      </div>
      <dl className="event-drawer__fields">
        {fields.map((field) => (
          <div key={field.name}>
            <dt>{field.name}</dt>
            <dd>
              {field.list && field.list.length > 0 ? (
                <ul className="event-drawer__values">
                  {field.list.map((item) => (
                    <li key={item.key}>
                      {item.value}
                      <FilterButtons of={item.filter} onFilter={onFilter} />
                    </li>
                  ))}
                </ul>
              ) : (
                <>
                  {field.value}
                  {field.filter && <FilterButtons of={field.filter} onFilter={onFilter} />}
                </>
              )}
            </dd>
          </div>
        ))}
      </dl>
      {where && event.country && (
        <LeafletMap
          label={`Client location: ${countryText(event.country)}`}
          center={where}
          zoom={3}
          height={220}
          markers={[
            {
              id: event.id,
              lat: where[0],
              lng: where[1],
              count: 1,
              label: `${event.ip ?? 'client'} (${countryText(event.country)})`,
            },
          ]}
        />
      )}
      <section aria-labelledby="event-drawer-raw" aria-busy={record.state === 'loading'}>
        <h3 id="event-drawer-raw" tabIndex={-1} ref={rawHeading}>
          Raw record
        </h3>
        <RawRecordView
          record={record}
          onRetry={() => {
            // The Retry button goes away while loading: the keyboard stays in the section.
            rawHeading.current?.focus();
            retry();
          }}
        />
      </section>
    </aside>
  );
}
