import { useStore } from '@nanostores/react';
import { type ReactNode, useState } from 'react';
import { sourceKindLabels } from '../../../contract/constants/sources.ts';
import { atLeast } from '../../../contract/roles.ts';
import { errorMessage } from '../../lib/api.ts';
import { invalidateApi } from '../../stores/fetcher.ts';
import { $routeId, $spaceId } from '../../stores/route.ts';
import { $source, deleteSource, rotateSourceToken } from '../../stores/sources.ts';
import { $space } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { logSourcesPath } from '../console/console-areas.ts';
import { Alert } from '../shared/Alert.tsx';
import { ConfirmButton } from '../shared/ConfirmButton.tsx';
import { dateOnly } from '../shared/format.ts';
import { Loaded } from '../shared/Loaded.tsx';
import { navigate } from '../shared/navigate.ts';
import { all, useApi } from '../shared/use-api.ts';
import { IngestCommand } from './IngestCommand.tsx';
import { LineErrors } from './LineErrors.tsx';
import { ParserTest } from './ParserTest.tsx';
import { SourceEditForm } from './SourceEditForm.tsx';
import { SourceFigures } from './SourceFigures.tsx';
import { TokenReveal } from './TokenReveal.tsx';
import '../shared/panels.css';
import '../shared/console-screens.css';

interface Notice {
  readonly tone: 'error' | 'success';
  readonly text: string;
}

/** What a source id this space does not have reads as: the page's own heading and a way back. */
const SOURCE_MISSING = (
  <div className="sg-missing">
    <h2>Log source not found</h2>
    <p>This space has no log source with this id. It may have been deleted, or the link is mistyped.</p>
  </div>
);

/** /console/siem/manage/{space_id}/{id}: one log source, its token and ingest command, parser test and errors. */
export function SourcePage() {
  const spaceId = useStore($spaceId);
  const sourceId = useStore($routeId);
  const space = useApi($space);
  const detail = useApi($source);
  const [token, setToken] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [deleted, setDeleted] = useState<string | null>(null);
  const retry = (): void => {
    space.retry();
    detail.retry();
  };

  if (deleted !== null && spaceId) {
    return (
      <div className="card panel" role="status">
        <p>Source “{deleted}” was deleted with its events. Taking you back to the log sources…</p>
        <a href={logSourcesPath(spaceId)}>Back to the log sources</a>
      </div>
    );
  }
  // Whether the space is the caller's decides what a missing source means, so the space answers first.
  return (
    <Loaded
      spaceId={sourceId === null ? null : spaceId}
      loaded={space.loaded}
      retry={retry}
      loading="Loading the log source…"
    >
      {(_space, _view, spaceId) => (
        <Loaded
          loaded={all(space.loaded, detail.loaded)}
          retry={retry}
          loading="Loading the log source…"
          notFound={SOURCE_MISSING}
          back={{ href: logSourcesPath(spaceId), label: 'Back to the log sources' }}
        >
          {(data) => {
            const [{ id, role, retentionDays }, source] = data;
            const admin = atLeast(role, 'admin');

            const rotate = async (): Promise<void> => {
              try {
                setToken(await rotateSourceToken(id, source.id));
                setNotice(null);
              } catch (error) {
                setNotice({ tone: 'error', text: `The token was not rotated: ${errorMessage(error)}` });
              }
            };
            const remove = async (): Promise<void> => {
              try {
                await deleteSource(id, source.id);
                setDeleted(source.name);
                navigate(logSourcesPath(id));
              } catch (error) {
                setNotice({ tone: 'error', text: `The source was not deleted: ${errorMessage(error)}` });
              }
            };

            return (
              <div className="stack sg-source-page">
                <p>
                  <a href={logSourcesPath(id)}>← Log sources</a>
                </p>
                {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
                <Section id="sg-source-heading" title={source.name}>
                  <p className="muted">
                    {sourceKindLabels[source.kind]} · created {dateOnly(source.createdAt)}
                  </p>
                  <SourceFigures source={source} spaceRetentionDays={retentionDays} now={Date.now()} />
                  <button type="button" className="button secondary" onClick={() => invalidateApi($source)}>
                    Refresh figures
                  </button>
                </Section>

                <Section id="sg-source-token-heading" title="Ingest token">
                  {token ? (
                    <TokenReveal token={token} title="New token issued; the old one no longer works." />
                  ) : (
                    <>
                      <p>
                        The token starts with <code className="sg-mono">{source.tokenPrefix}</code>. It was shown once,
                        when the source was created or its token last rotated.
                      </p>
                      <IngestCommand token={null} />
                    </>
                  )}
                  {admin && (
                    <div className="row">
                      <ConfirmButton
                        label="Rotate token"
                        question="Rotate the token? The current one stops working at once."
                        confirmLabel="Rotate"
                        onConfirm={rotate}
                      />
                    </div>
                  )}
                </Section>

                <Section id="sg-source-test-heading" title="Parser test">
                  {admin ? (
                    <ParserTest spaceId={id} sourceId={source.id} kind={source.kind} />
                  ) : (
                    <p className="muted">Only admins and owners of this space can run the parser test.</p>
                  )}
                </Section>

                <Section id="sg-source-errors-heading" title="Recent ingest errors">
                  {source.recentErrors.length === 0 ? (
                    <p className="sg-empty">
                      No refused lines. When the ingest API refuses a line, its number and reason appear here.
                    </p>
                  ) : (
                    <>
                      <p className="muted">
                        {source.recentErrors.length === 1
                          ? 'The most recent refused line.'
                          : `The ${source.recentErrors.length} most recent refused lines, newest first.`}
                      </p>
                      <LineErrors errors={source.recentErrors} label="Recent ingest errors" hideCaption />
                    </>
                  )}
                </Section>

                {admin && (
                  <Section id="sg-source-settings-heading" title="Settings">
                    <SourceEditForm key={source.id} source={source} spaceRetentionDays={retentionDays} />
                  </Section>
                )}

                {admin && (
                  <Section id="sg-source-delete-heading" title="Delete this source" danger>
                    <p className="muted">Its token stops working and its events are deleted. This cannot be undone.</p>
                    <ConfirmButton
                      label="Delete source"
                      question={`Delete ${source.name} and its events?`}
                      confirmLabel="Delete"
                      onConfirm={remove}
                    />
                  </Section>
                )}
              </div>
            );
          }}
        </Loaded>
      )}
    </Loaded>
  );
}

interface SectionProps {
  readonly id: string;
  readonly title: string;
  readonly danger?: boolean;
  readonly children: ReactNode;
}

function Section({ id, title, danger = false, children }: SectionProps) {
  return (
    <section className={danger ? 'card panel sg-danger-zone' : 'card panel'} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export default withApp(SourcePage);
