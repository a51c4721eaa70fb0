import type { AlertDetail } from '../../../contract/alerts.ts';
import { buildPath } from '../../lib/routes.ts';
import { alertsTabSearch } from '../shared/alert-url.ts';
import { SeverityBadge } from '../shared/SeverityBadge.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { When } from './When.tsx';

/** The facts of one alert: severity, title, status, count, first and last seen, group, rule and assignee. */
export function AlertHeader({ alert, now }: { readonly alert: AlertDetail; readonly now: number }) {
  const space = { space_id: alert.spaceId };
  const rulesTab = buildPath('/console/alert/{space_id}', space) + alertsTabSearch('rules');
  const group = Object.entries(alert.group);
  return (
    <header className="sg-al-header">
      <p className="sg-al-header__badges">
        <SeverityBadge severity={alert.severity} /> <StatusBadge alert={alert} now={now} />
      </p>
      <h2 id="sg-alert-heading">{alert.title}</h2>
      <dl className="sg-figures sg-al-facts">
        <div>
          <dt>Events</dt>
          <dd>
            {alert.count.toLocaleString('en')}
            {alert.eventsKept < alert.count ? ` (${alert.eventsKept.toLocaleString('en')} kept as links)` : ''}
          </dd>
        </div>
        <div>
          <dt>First seen</dt>
          <dd>
            <When iso={alert.firstSeen} now={now} />
          </dd>
        </div>
        <div>
          <dt>Last seen</dt>
          <dd>
            <When iso={alert.lastSeen} now={now} />
          </dd>
        </div>
        <div>
          <dt>Rule</dt>
          <dd>{alert.ruleId ? <a href={rulesTab}>{alert.ruleName}</a> : `${alert.ruleName} (deleted)`}</dd>
        </div>
        <div>
          <dt>Assignee</dt>
          <dd>{alert.assignee?.name ?? 'unassigned'}</dd>
        </div>
        <div>
          <dt>Group</dt>
          <dd className="sg-mono">
            {group.length === 0
              ? 'all events'
              : group.map(([field, value]) => (
                  <span key={field} className="sg-al-group">
                    {field}={value}
                  </span>
                ))}
          </dd>
        </div>
      </dl>
      {alert.firewallId && (
        <p>
          <a
            href={buildPath('/console/alerts/waf/{space_id}/{waf_id}/{id}', {
              ...space,
              waf_id: alert.firewallId,
              id: alert.id,
            })}
          >
            Open as WAF alert
          </a>
        </p>
      )}
    </header>
  );
}
