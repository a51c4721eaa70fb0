import { buildPath } from '../../lib/routes.ts';
import { $openAlerts } from '../../stores/overview.ts';
import { readAlertView, writeAlertView } from '../shared/alert-url.ts';
import { Problem } from '../shared/Problem.tsx';
import { SeverityBadge } from '../shared/SeverityBadge.tsx';
import { SeverityCounts } from '../shared/SeverityCounts.tsx';
import { useApi } from '../shared/use-api.ts';

/** The overview's open alerts: how many by severity, the five with the newest activity, and a link to all of them. */
export function OpenAlertsCard({ spaceId }: { readonly spaceId: string }) {
  const { loaded, retry } = useApi($openAlerts);
  const list = buildPath('/console/alert/{space_id}', { space_id: spaceId });
  const allOpen = list + writeAlertView({ ...readAlertView(''), status: ['open'] });
  return (
    <section className="card panel" aria-labelledby="open-alerts-title">
      <h2 id="open-alerts-title">Open alerts</h2>
      {loaded.state === 'error' && <Problem error={loaded.error} onRetry={retry} />}
      {loaded.state === 'loading' && <p role="status">Loading alerts…</p>}
      {loaded.state === 'ready' &&
        (loaded.data.items.length === 0 ? (
          <p className="muted">
            No open alert. <a href={`${list}?tab=rules`}>Alert rules</a> decide what opens one.
          </p>
        ) : (
          <>
            <SeverityCounts counts={loaded.data.counts} />
            <ul className="overview__alerts">
              {loaded.data.items.map((alert) => (
                <li key={alert.id}>
                  <SeverityBadge severity={alert.severity} />{' '}
                  <a href={buildPath('/console/alert/{space_id}/{id}', { space_id: spaceId, id: alert.id })}>
                    {alert.title}
                  </a>{' '}
                  <span className="muted">({alert.count.toLocaleString('en')} events)</span>
                </li>
              ))}
            </ul>
            <p>
              <a href={allOpen}>All open alerts</a>
            </p>
          </>
        ))}
    </section>
  );
}
