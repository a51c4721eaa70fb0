import { useStore } from '@nanostores/react';
import { lazy, Suspense, useState } from 'react';
import { atLeast } from '../../../contract/roles.ts';
import type { CreatedSource } from '../../../contract/sources.ts';
import { buildPath } from '../../lib/routes.ts';
import { invalidateApi } from '../../stores/fetcher.ts';
import { $spaceId } from '../../stores/route.ts';
import { $sources } from '../../stores/sources.ts';
import { $space } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { Loaded } from '../shared/Loaded.tsx';
import { all, useApi } from '../shared/use-api.ts';
import { CreateSourceForm } from './CreateSourceForm.tsx';
import { SourcesTable } from './SourcesTable.tsx';
import '../shared/panels.css';
import '../shared/console-screens.css';

// Shown once a source is created: its code loads then.
const TokenReveal = lazy(() => import('./TokenReveal.tsx').then((module) => ({ default: module.TokenReveal })));

/** The log sources of the event log page: ingest rate, last event and errors of each; admins add sources. */
export function SourcesPanel() {
  const spaceId = useStore($spaceId);
  const space = useApi($space);
  const sources = useApi($sources);
  const [created, setCreated] = useState<CreatedSource | null>(null);
  const loaded = all(space.loaded, sources.loaded);
  const retry = (): void => {
    space.retry();
    sources.retry();
  };

  const body = (
    <Loaded spaceId={spaceId} loaded={loaded} retry={retry} loading="Loading log sources…">
      {(data) => {
        const [{ id, role }, { items }] = data;
        const admin = atLeast(role, 'admin');
        return (
          <>
            <div className="row sg-sources-head">
              <p className="muted">
                Each source has its own ingest token. Open a source for its token, the command to send events, the
                parser test and its refused lines.
              </p>
              <button type="button" className="button secondary" onClick={() => invalidateApi($space, $sources)}>
                Refresh
              </button>
            </div>
            {items.length === 0 ? (
              <p className="sg-empty">
                No log sources yet.{' '}
                {admin
                  ? 'Add one below, then send events to its ingest URL.'
                  : 'An admin or owner of this space can add one.'}
              </p>
            ) : (
              <SourcesTable spaceId={id} sources={items} now={Date.now()} />
            )}
            {created && (
              <div className="sg-created">
                <Suspense fallback={<p role="status">Showing the token…</p>}>
                  <TokenReveal token={created.token} title={`Source “${created.name}” created.`} />
                </Suspense>
                <a
                  className="button secondary"
                  href={buildPath('/console/siem/manage/{space_id}/{id}', { space_id: id, id: created.id })}
                >
                  Open the page of {created.name}
                </a>
              </div>
            )}
            {admin ? (
              <section className="sg-create" aria-labelledby="sg-create-source-heading">
                <h3 id="sg-create-source-heading">Add a log source</h3>
                <CreateSourceForm spaceId={id} onCreated={setCreated} />
              </section>
            ) : (
              <p className="muted">Only admins and owners of this space can add, change or delete log sources.</p>
            )}
          </>
        );
      }}
    </Loaded>
  );

  return (
    <section className="card panel sg-sources" aria-labelledby="sg-sources-heading">
      <h2 id="sg-sources-heading">Log sources</h2>
      {body}
    </section>
  );
}

export default withApp(SourcesPanel);
