import { useStore } from '@nanostores/react';
import { lazy, type RefObject, Suspense } from 'react';
import { findingStatusLabels, vexJustificationLabels } from '../../../../contract/constants/vulns.ts';
import type { FindingDetail } from '../../../../contract/findings.ts';
import { $finding, $findingId, triageFinding } from '../../../stores/findings.ts';
import { Drawer } from '../../shared/Drawer.tsx';
import { Problem } from '../../shared/Problem.tsx';
import { useApi } from '../../shared/use-api.ts';
import { VulnSeverityBadge } from '../VulnSeverityBadge.tsx';
import { TriageForm } from './TriageForm.tsx';

// Loaded when first opened: a page that never opens it never downloads it.
const VirtualPatchForm = lazy(() =>
  import('./VirtualPatchForm.tsx').then((module) => ({ default: module.VirtualPatchForm })),
);

interface Props {
  readonly spaceId: string;
  readonly canTriage: boolean;
  readonly canManage: boolean;
  /** Where the focus goes back to when the panel closes (the finding's button). */
  readonly returnFocus: RefObject<HTMLElement | null>;
}

/** A decision of the timeline in words: "Not affected: code not reachable", "Reopened". */
function decisionText(entry: FindingDetail['timeline'][number]): string {
  const justification = entry.scope?.justification as keyof typeof vexJustificationLabels | undefined;
  const name =
    entry.decision === 'reopened'
      ? 'Opened again'
      : (findingStatusLabels[entry.decision as keyof typeof findingStatusLabels] ?? entry.decision);
  return justification && vexJustificationLabels[justification]
    ? `${name}: ${vexJustificationLabels[justification]}`
    : name;
}

/** One finding in a side panel: what and where, its decisions, triage, and the virtual patch. */
export function FindingPanel({ spaceId, canTriage, canManage, returnFocus }: Props) {
  const id = useStore($findingId);
  const finding = useApi($finding);
  const close = (): void => $findingId.set(null);
  let body = null;
  if (finding.loaded.state === 'loading') body = <p role="status">Loading the finding…</p>;
  else if (finding.loaded.state === 'error') body = <Problem error={finding.loaded.error} onRetry={finding.retry} />;
  else {
    const f = finding.loaded.data;
    body = (
      <>
        <p>
          <VulnSeverityBadge severity={f.severity} score={f.score} /> {findingStatusLabels[f.status]}
          {f.justification && ` (${vexJustificationLabels[f.justification]})`}
        </p>
        {f.summary && <p>{f.summary}</p>}
        <dl className="sg-vu-facts">
          <dt>Component</dt>
          <dd className="sg-mono">
            {f.component.name}@{f.component.version} ({f.component.ecosystem})
          </dd>
          <dt>Asset</dt>
          <dd>{f.asset.name}</dd>
          <dt>Fixed in</dt>
          <dd className="sg-mono">{f.fixedIn ?? 'No fixed version known'}</dd>
          {f.aliases.length > 0 && (
            <>
              <dt>Aliases</dt>
              <dd className="sg-mono">{f.aliases.join(', ')}</dd>
            </>
          )}
          <dt>First seen</dt>
          <dd>{new Date(f.firstSeen).toLocaleString()}</dd>
          {f.until && (
            <>
              <dt>Accepted until</dt>
              <dd>{new Date(f.until).toLocaleString()}</dd>
            </>
          )}
        </dl>
        <p>
          <a href={`/console/vulnerabilities/refs/${spaceId}?id=${encodeURIComponent(f.vulnId)}`}>
            Open {f.vulnId} in the library
          </a>
        </p>
        {f.references.length > 0 && (
          <ul className="sg-vu-refs">
            {f.references.slice(0, 8).map((r) => (
              <li key={r.url}>
                <a href={r.url} target="_blank" rel="noopener noreferrer">
                  {r.url}
                </a>{' '}
                <span className="muted">({r.type.toLowerCase()})</span>
              </li>
            ))}
          </ul>
        )}
        {canTriage && f.status !== 'fixed' && f.status !== 'mitigated' && (
          <TriageForm
            legend="Triage"
            onTriage={async (change) => {
              await triageFinding(spaceId, f.id, change);
            }}
          />
        )}
        {canManage && f.asset.kind === 'application' && f.status !== 'fixed' && (
          <Suspense fallback={<p role="status">Loading the virtual patch form…</p>}>
            <VirtualPatchForm spaceId={spaceId} finding={f} />
          </Suspense>
        )}
        <section aria-labelledby="sg-vu-timeline">
          <h3 id="sg-vu-timeline">Decisions</h3>
          {f.timeline.length === 0 ? (
            <p className="muted">No decision yet.</p>
          ) : (
            <ol className="sg-vu-timeline">
              {f.timeline.map((entry) => (
                <li key={entry.id}>
                  <strong>{decisionText(entry)}</strong> by {entry.actor.name ?? 'a former member'},{' '}
                  <time dateTime={entry.at}>{new Date(entry.at).toLocaleString()}</time>
                  {entry.until && <> until {new Date(entry.until).toLocaleDateString()}</>}
                  {entry.reason && <p>{entry.reason}</p>}
                </li>
              ))}
            </ol>
          )}
        </section>
      </>
    );
  }
  return (
    <Drawer
      open={id !== null}
      onClose={close}
      variant="panel"
      returnFocus={returnFocus}
      label={finding.loaded.state === 'ready' ? `Finding ${finding.loaded.data.vulnId}` : 'Finding'}
    >
      <div className="sg-vu-finding">
        {finding.loaded.state === 'ready' && <h2 className="sg-vu-finding-title">{finding.loaded.data.vulnId}</h2>}
        {body}
      </div>
    </Drawer>
  );
}
