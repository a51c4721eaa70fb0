import { useEffect, useRef, useState } from 'react';
import type { EventSummary } from '../../../contract/events.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { JsonViewer } from '../json-viewer/JsonViewer.tsx';
import { LeafletMap } from '../map/LeafletMap.tsx';
import { Alert } from '../shared/Alert.tsx';
import { centroidOf, loadOutlines } from './country-centroid.ts';
import { type RawRecord, useEventDetail } from './use-event-detail.ts';

interface Props {
  readonly spaceId: string;
  /** The row opened: its fields show at once, the raw record is fetched. */
  readonly event: EventSummary;
  readonly onClose: () => void;
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
          <button type="button" className="button secondary" onClick={onRetry}>
            Retry
          </button>
        </div>
      </Alert>
    );
  }
  return <JsonViewer data={record.raw} label="Raw record" expandDepth={2} />;
}

/**
 * One event in a side panel: the fields of its row at once, the client's country on the map, and the raw record
 * (which the page's rows leave out) in the JSON viewer once fetched.
 */
export function EventDrawer({ spaceId, event, onClose }: Props) {
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
  const fields: Array<[string, string]> = [
    ['Time', new Date(event.time).toLocaleString()],
    ['Action', event.action],
    ['Severity', event.severity],
    ['Client IP', event.ip ?? '—'],
    ['Country', event.country ?? 'unknown'],
    ['Request', `${event.method ?? ''} ${event.host ?? ''}${event.path ?? ''}`.trim() || '—'],
    ['Status', event.status === null ? '—' : String(event.status)],
    ['Rules', event.ruleIds.join(', ') || '—'],
    ['Tags', event.tags.join(', ') || '—'],
    ['Message', event.message ?? '—'],
    ['User agent', event.userAgent ?? '—'],
  ];
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
      <dl className="event-drawer__fields">
        {fields.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {where && event.country && (
        <LeafletMap
          label={`Client location: ${event.country}`}
          center={where}
          zoom={3}
          height={220}
          markers={[
            {
              id: event.id,
              lat: where[0],
              lng: where[1],
              count: 1,
              label: `${event.ip ?? 'client'} (${event.country})`,
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
