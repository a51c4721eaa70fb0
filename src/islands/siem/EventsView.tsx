import { lazy, Suspense } from 'react';
import { readView, SOURCES_VIEW } from '../console/console-areas.ts';
import { useUrlView } from '../shared/use-url-view.ts';
import '../shared/panels.css';
import './EventLogScreen.css';

// The event log's code loads once the page knows it shows the events, so the log sources view never fetches it.
const EventLogScreen = lazy(() => import('./EventLogScreen.tsx'));

const keep = (_view: string, current: URLSearchParams): string => current.toString();

/** What the event log shows until its code has loaded: the same line it shows while its first page loads. */
const pending = (
  <div className="event-log event-log--pending">
    <p role="status">Loading the event log…</p>
  </div>
);

/**
 * The event log (an island of its own inside) on its route, unless the route shows the log sources (the rail's
 * "Log sources" entry). The view is known once hydrated; the pre-rendered shell shows the loading line.
 */
function EventsView() {
  const [view] = useUrlView(readView, keep);
  if (view === null) return pending;
  if (view === SOURCES_VIEW) return null;
  return (
    <Suspense fallback={pending}>
      <EventLogScreen />
    </Suspense>
  );
}

export default EventsView;
