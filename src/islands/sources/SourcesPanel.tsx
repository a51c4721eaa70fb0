import { type ReactNode, useCallback, useState } from 'react';
import { atLeast } from '../../../contract/constants/roles.ts';
import type { CreatedSource, Source } from '../../../contract/sources.ts';
import type { Space } from '../../../contract/spaces.ts';
import { api } from '../../lib/api.ts';
import { withApp } from '../app/with-app.tsx';
import { noSpaceError, ScreenProblem } from '../shared/Problem.tsx';
import { useSpaceId } from '../management/use-space-id.ts';
import { LoadError } from '../shared/LoadError.tsx';
import { useLoad } from '../shared/use-load.ts';
import { useSignedIn } from '../shared/use-signed-in.ts';
import { CreateSourceForm } from './CreateSourceForm.tsx';
import { SourcesTable } from './SourcesTable.tsx';
import { sourcePath } from './source-route.ts';
import { TokenReveal } from './TokenReveal.tsx';
import { useVisibleRefresh } from './use-visible-refresh.ts';
import '../management/management.css';
import './sources.css';

interface PanelData {
  readonly space: Space;
  readonly sources: readonly Source[];
  readonly loadedAt: number;
}

async function loadPanel(spaceId: string): Promise<PanelData> {
  const [space, list] = await Promise.all([
    api<Space>(`/spaces/${spaceId}`),
    api<{ items: Source[] }>(`/spaces/${spaceId}/sources`),
  ]);
  return { space, sources: list.items, loadedAt: Date.now() };
}

/** The log sources of the event log page: ingest rate, last event and errors of each; admins add sources. */
export function SourcesPanel() {
  const { me, error: meError, retry } = useSignedIn();
  const spaceId = useSpaceId();
  const load = useCallback(() => (spaceId ? loadPanel(spaceId) : Promise.reject(noSpaceError())), [spaceId]);
  const { loaded, reload } = useLoad(me && spaceId !== undefined ? load : null);
  const [created, setCreated] = useState<CreatedSource | null>(null);

  useVisibleRefresh(reload);

  let body: ReactNode;
  if (meError) body = <LoadError message={meError} onRetry={retry} />;
  else if (loaded.state === 'loading')
    body = (
      <p className="muted" role="status">
        Loading log sources…
      </p>
    );
  else if (loaded.state === 'error') body = <ScreenProblem error={loaded.error} onRetry={reload} />;
  else {
    const { space, sources, loadedAt } = loaded.data;
    const admin = atLeast(space.role, 'admin');
    body = (
      <>
        <div className="row sg-sources-head">
          <p className="muted">
            Each source has its own ingest token. Open a source for its token, the command to send events, the parser
            test and its refused lines.
          </p>
          <button type="button" className="button secondary" onClick={reload}>
            Refresh
          </button>
        </div>
        {sources.length === 0 ? (
          <p className="sg-empty">
            No log sources yet.{' '}
            {admin
              ? 'Add one below, then send events to its ingest URL.'
              : 'An admin or owner of this space can add one.'}
          </p>
        ) : (
          <SourcesTable spaceId={space.id} sources={sources} now={loadedAt} />
        )}
        {created && (
          <div className="sg-created">
            <TokenReveal token={created.token} title={`Source “${created.name}” created.`} />
            <a className="button secondary" href={sourcePath(space.id, created.id)}>
              Open the page of {created.name}
            </a>
          </div>
        )}
        {admin ? (
          <section className="sg-create" aria-labelledby="sg-create-source-heading">
            <h3 id="sg-create-source-heading">Add a log source</h3>
            <CreateSourceForm
              spaceId={space.id}
              onCreated={(source) => {
                setCreated(source);
                reload();
              }}
            />
          </section>
        ) : (
          <p className="muted">Only admins and owners of this space can add, change or delete log sources.</p>
        )}
      </>
    );
  }

  return (
    <section className="card panel sg-sources" aria-labelledby="sg-sources-heading">
      <h2 id="sg-sources-heading">Log sources</h2>
      {body}
    </section>
  );
}

export default withApp(SourcesPanel);
