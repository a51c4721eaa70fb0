import { lazy, Suspense } from 'react';
import { withApp } from '../app/with-app.tsx';
import { readView, SOURCES_VIEW } from '../console/console-areas.ts';
import { useUrlView } from '../shared/use-url-view.ts';

// The event log's route loads the sources' code only when it shows them.
const SourcesPanel = lazy(() => import('./SourcesPanel.tsx').then((module) => ({ default: module.SourcesPanel })));

const keep = (_view: string, current: URLSearchParams): string => current.toString();

/** The log sources on the event log's route, when its `view` asks for them (the rail's "Log sources" entry). */
function SourcesView() {
  const [view] = useUrlView(readView, keep);
  if (view !== SOURCES_VIEW) return null;
  return (
    <Suspense fallback={<p role="status">Loading log sources…</p>}>
      <SourcesPanel />
    </Suspense>
  );
}

export default withApp(SourcesView);
