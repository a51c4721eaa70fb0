import { useEffect, useRef, useState } from 'react';
import type { Event } from '../../../contract/events.ts';
import { JsonViewer } from '../json-viewer/JsonViewer.tsx';
import { LeafletMap } from '../map/LeafletMap.tsx';
import { centroidOf, loadOutlines } from './country-centroid.ts';

interface Props {
  readonly event: Event;
  readonly onClose: () => void;
}

/** One event in a side panel: its fields, the raw record in the JSON viewer, and the client's country on the map. */
export function EventDrawer({ event, onClose }: Props) {
  const [where, setWhere] = useState<[number, number] | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
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
      <h3>Raw record</h3>
      <JsonViewer data={event.raw} label="Raw record" expandDepth={2} />
    </aside>
  );
}
