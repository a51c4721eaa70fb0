import { vulnSeverities, vulnSeverityLabels } from '../../../contract/constants/vulns.ts';
import { buildPath } from '../../lib/routes.ts';
import { $openFindings } from '../../stores/overview.ts';
import { Problem } from '../shared/Problem.tsx';
import { SeverityBadge } from '../shared/SeverityBadge.tsx';
import { useApi } from '../shared/use-api.ts';

/** The overview's vulnerabilities: open findings by severity, the five newest, and a link to all of them. */
export function OpenFindingsCard({ spaceId }: { readonly spaceId: string }) {
  const { loaded, retry } = useApi($openFindings);
  const page = buildPath('/console/vulnerabilities/assessment/{space_id}', { space_id: spaceId });
  return (
    <section className="card panel" aria-labelledby="open-findings-title">
      <h2 id="open-findings-title">Vulnerabilities</h2>
      {loaded.state === 'error' && <Problem error={loaded.error} onRetry={retry} />}
      {loaded.state === 'loading' && <p role="status">Loading findings…</p>}
      {loaded.state === 'ready' &&
        (loaded.data.items.length === 0 ? (
          <p className="muted">
            No open finding. <a href={`${page}?tab=assets`}>Assets</a> and their assessments find them.
          </p>
        ) : (
          <>
            <p className="overview__findings-counts">
              {vulnSeverities
                .filter((s) => loaded.data.counts.open[s] > 0)
                .map((s) => (
                  <SeverityBadge key={s} severity={s}>
                    {vulnSeverityLabels[s]} {loaded.data.counts.open[s].toLocaleString('en')}
                  </SeverityBadge>
                ))}
            </p>
            <ul className="overview__alerts">
              {loaded.data.items.map((f) => (
                <li key={f.id}>
                  <SeverityBadge severity={f.severity}>{vulnSeverityLabels[f.severity]}</SeverityBadge>{' '}
                  <span className="sg-mono">{f.vulnId}</span> in {f.component.name}@{f.component.version} of{' '}
                  {f.asset.name}
                </li>
              ))}
            </ul>
            <p>
              <a href={`${page}?f.status=open`}>All open findings</a>
            </p>
          </>
        ))}
    </section>
  );
}
