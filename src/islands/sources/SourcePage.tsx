import { type ReactNode, useCallback, useState } from 'react';
import { atLeast } from '../../../contract/constants/roles.ts';
import { sourceKindLabels } from '../../../contract/constants/sources.ts';
import type { CreatedSource, SourceDetail } from '../../../contract/sources.ts';
import type { Space } from '../../../contract/spaces.ts';
import { ApiError, api, errorMessage } from '../../lib/api.ts';
import { withApp } from '../app/with-app.tsx';
import { ConfirmButton } from '../shared/ConfirmButton.tsx';
import { dateOnly } from '../shared/format.ts';
import { navigate } from '../shared/navigate.ts';
import { noSpaceError, ScreenProblem } from '../shared/Problem.tsx';
import { Alert } from '../shared/Alert.tsx';
import { LoadError } from '../shared/LoadError.tsx';
import { useLoad } from '../shared/use-load.ts';
import { useSignedIn } from '../shared/use-signed-in.ts';
import { IngestCommand } from './IngestCommand.tsx';
import { LineErrors } from './LineErrors.tsx';
import { ParserTest } from './ParserTest.tsx';
import { SourceEditForm } from './SourceEditForm.tsx';
import { SourceFigures } from './SourceFigures.tsx';
import { eventLogPath, useSourceRoute } from './source-route.ts';
import { TokenReveal } from './TokenReveal.tsx';
import { useVisibleRefresh } from './use-visible-refresh.ts';
import '../management/management.css';
import './sources.css';

interface PageData {
  readonly space: Space;
  readonly source: SourceDetail;
  readonly loadedAt: number;
}

/** The space exists and the caller belongs to it, but it has no source with this id. */
class SourceMissing extends Error {}

async function loadSource(spaceId: string, sourceId: string): Promise<PageData> {
  const [space, source] = await Promise.allSettled([
    api<Space>(`/spaces/${spaceId}`),
    api<SourceDetail>(`/spaces/${spaceId}/sources/${sourceId}`),
  ]);
  if (space.status === 'rejected') throw space.reason;
  if (source.status === 'rejected') {
    if (source.reason instanceof ApiError && source.reason.status === 404) throw new SourceMissing();
    throw source.reason;
  }
  return { space: space.value, source: source.value, loadedAt: Date.now() };
}

interface Notice {
  readonly tone: 'error' | 'success';
  readonly text: string;
}

/** /console/siem/manage/{space_id}/{id}: one log source, its token and ingest command, parser test and errors. */
export function SourcePage() {
  const { me, error: meError, retry } = useSignedIn();
  const route = useSourceRoute();
  const load = useCallback(
    () =>
      route?.spaceId && route.sourceId ? loadSource(route.spaceId, route.sourceId) : Promise.reject(noSpaceError()),
    [route],
  );
  const { loaded, reload } = useLoad(me && route ? load : null);
  const [token, setToken] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [deleted, setDeleted] = useState<string | null>(null);

  useVisibleRefresh(reload);

  if (meError) return <LoadError message={meError} onRetry={retry} />;
  if (deleted !== null && route?.spaceId) {
    return (
      <div className="card panel" role="status">
        <p>Source “{deleted}” was deleted with its events. Taking you back to the event log…</p>
        <a href={eventLogPath(route.spaceId)}>Back to the event log</a>
      </div>
    );
  }
  if (loaded.state === 'loading')
    return (
      <p className="muted" role="status">
        Loading the log source…
      </p>
    );
  if (loaded.state === 'error') {
    if (loaded.error instanceof SourceMissing && route?.spaceId) {
      return (
        <div className="card panel sg-missing">
          <h2>Log source not found</h2>
          <p>This space has no log source with this id. It may have been deleted, or the link is mistyped.</p>
          <a className="button secondary" href={eventLogPath(route.spaceId)}>
            Back to the event log and its sources
          </a>
        </div>
      );
    }
    return <ScreenProblem error={loaded.error} onRetry={reload} />;
  }

  const { space, source, loadedAt } = loaded.data;
  const admin = atLeast(space.role, 'admin');
  const base = `/spaces/${space.id}/sources/${source.id}`;

  const rotate = async (): Promise<void> => {
    try {
      const rotated = await api<CreatedSource>(`${base}/token`, { method: 'POST' });
      setToken(rotated.token);
      setNotice(null);
      reload();
    } catch (error) {
      setNotice({ tone: 'error', text: `The token was not rotated: ${errorMessage(error)}` });
    }
  };
  const remove = async (): Promise<void> => {
    try {
      await api(base, { method: 'DELETE' });
      setDeleted(source.name);
      navigate(eventLogPath(space.id));
    } catch (error) {
      setNotice({ tone: 'error', text: `The source was not deleted: ${errorMessage(error)}` });
    }
  };

  return (
    <div className="stack sg-source-page">
      <p>
        <a href={eventLogPath(space.id)}>← Security events and log sources</a>
      </p>
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      <Section id="sg-source-heading" title={source.name}>
        <p className="muted">
          {sourceKindLabels[source.kind]} · created {dateOnly(source.createdAt)}
        </p>
        <SourceFigures source={source} spaceRetentionDays={space.retentionDays} now={loadedAt} />
        <button type="button" className="button secondary" onClick={reload}>
          Refresh figures
        </button>
      </Section>

      <Section id="sg-source-token-heading" title="Ingest token">
        {token ? (
          <TokenReveal token={token} title="New token issued; the old one no longer works." />
        ) : (
          <>
            <p>
              The token starts with <code className="sg-mono">{source.tokenPrefix}</code>. It was shown once, when the
              source was created or its token last rotated.
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
          <ParserTest spaceId={space.id} sourceId={source.id} kind={source.kind} />
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
          <SourceEditForm
            key={source.id}
            source={source}
            spaceRetentionDays={space.retentionDays}
            onSaved={() => reload()}
          />
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
