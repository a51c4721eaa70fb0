import { type FirewallMode, firewallModeLabels } from '../../../contract/constants/firewalls.ts';
import { atLeast } from '../../../contract/roles.ts';
import type { WafAlertContext, WafRequest } from '../../../contract/waf.ts';
import { buildPath } from '../../lib/routes.ts';
import { $wafAlert } from '../../stores/alerts.ts';
import { invalidateApi } from '../../stores/fetcher.ts';
import { withApp } from '../app/with-app.tsx';
import { TableScroll } from '../shared/TableScroll.tsx';
import { useApi } from '../shared/use-api.ts';
import { AlertHeader } from './AlertHeader.tsx';
import { AlertPage } from './AlertPage.tsx';
import { AlertRemedies } from './AlertRemedies.tsx';
import type { Traffic } from './alert-remedies.ts';
import { When } from './When.tsx';

/** A firewall mode in words ("Detect only"), or the stored word when it is not one the console knows. */
const modeText = (mode: string): string => firewallModeLabels[mode as FirewallMode] ?? mode;

/** A request as a remedy reads it: the rules that reported something (a message), not the bookkeeping ones. */
const trafficOf = (request: WafRequest): Traffic => ({
  ip: request.ip,
  path: request.path,
  ruleIds: request.rules.filter((rule) => rule.message !== null).map((rule) => rule.id),
});

/** The triggering requests: method, host, path, arguments, status, action, and each matched rule with its data. */
function Requests({ requests, now }: { readonly requests: readonly WafRequest[]; readonly now: number }) {
  if (requests.length === 0) return <p className="muted">No request of this alert is kept any more.</p>;
  return (
    <TableScroll label="Triggering requests">
      <table className="data sg-al-table sg-al-requests">
        <caption className="visually-hidden">Requests that triggered this alert, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Client</th>
            <th scope="col">Request</th>
            <th scope="col">Arguments</th>
            <th scope="col">Status</th>
            <th scope="col">Matched rules</th>
          </tr>
        </thead>
        <tbody>
          {requests.map((r) => (
            <tr key={r.eventId}>
              <td>
                <When iso={r.time} now={now} />
              </td>
              <td>{r.ip ?? '—'}</td>
              <td>
                <code>
                  {r.method ?? '—'} {r.host ?? ''}
                  {r.path ?? ''}
                </code>
              </td>
              <td>
                {r.args.length === 0 ? (
                  '—'
                ) : (
                  <ul className="sg-al-args">
                    {r.args.map((arg, index) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: arguments may repeat; their order is their identity
                      <li key={index}>
                        <code>
                          {arg.name}={arg.value}
                        </code>
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td>
                {r.status ?? '—'} {r.action}
              </td>
              <td>
                <ul className="sg-al-rules">
                  {r.rules.map((rule) => (
                    <li key={rule.id}>
                      <strong>{rule.id}</strong>
                      {rule.severity ? ` (${rule.severity})` : ''}
                      {rule.message ? `: ${rule.message}` : ''}
                      {rule.data && (
                        <>
                          <br />
                          <code className="sg-al-data">{rule.data}</code>
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The firewall then and now: its mode and version when the alert opened, and its current ones. */
function FirewallFacts({ spaceId, context }: { readonly spaceId: string; readonly context: WafAlertContext }) {
  const { firewall, atFirstSeen } = context;
  const config = buildPath('/console/firewall/config/{space_id}/{id}', { space_id: spaceId, id: firewall.id });
  return (
    <dl className="sg-figures sg-al-facts">
      <div>
        <dt>Firewall</dt>
        <dd>
          <a href={config}>{firewall.name}</a>
        </dd>
      </div>
      <div>
        <dt>Mode when the alert opened</dt>
        <dd>
          {atFirstSeen
            ? `${modeText(atFirstSeen.mode)} (version ${atFirstSeen.version})`
            : 'Before the firewall’s first version'}
        </dd>
      </div>
      <div>
        <dt>Mode now</dt>
        <dd>
          {modeText(firewall.mode)} (version {firewall.version})
        </dd>
      </div>
    </dl>
  );
}

/**
 * /console/alerts/waf/{space_id}/{waf_id}/{id}: an alert whose events all came from one firewall, with the requests
 * that triggered it, the firewall's mode then and now, triage, and one-click remedies (block the address for a
 * while, exclude a rule on a path) that show their effect and the configuration diff before they are applied.
 */
export function WafAlertScreen() {
  const context = useApi($wafAlert);
  return (
    <AlertPage
      label="WAF alert"
      loading="Loading the WAF alert…"
      notFound="This WAF alert does not exist, its events came from another firewall, or it belongs to a space you are not a member of."
      context={context}
    >
      {({ spaceId, role, alert, context: waf, now, done, triage, timeline }) => (
        <>
          <p className="sg-al-links">
            <a href={buildPath('/console/alert/{space_id}', { space_id: spaceId })}>← All alerts</a>
            {' · '}
            <a href={buildPath('/console/alert/{space_id}/{id}', { space_id: spaceId, id: alert.id })}>
              Notes and notifications of this alert
            </a>
          </p>
          <AlertHeader alert={alert} now={now} />
          <FirewallFacts spaceId={spaceId} context={waf} />
          {done}
          {/* Every member previews a WAF alert's remedies; admins and owners apply them. */}
          <AlertRemedies
            spaceId={spaceId}
            group={alert.group}
            traffic={waf.requests.map(trafficOf)}
            canApply={atLeast(role, 'admin')}
            firewalls={[{ id: waf.firewall.id, name: waf.firewall.name }]}
            firewallId={waf.firewall.id}
            intro={
              <p className="muted">
                Each remedy shows how many requests of the last 7 days it would have affected, and the configuration
                diff, before {atLeast(role, 'admin') ? 'you apply it' : 'an admin applies it'}: it becomes the
                firewall’s next version.
              </p>
            }
            none={<p className="muted">The kept requests suggest no remedy.</p>}
            onClose={() => invalidateApi($wafAlert)}
          />
          {triage}
          <section className="card panel" aria-labelledby="sg-waf-requests">
            <h3 id="sg-waf-requests">Triggering requests</h3>
            <Requests requests={waf.requests} now={now} />
          </section>
          {timeline()}
        </>
      )}
    </AlertPage>
  );
}

export default withApp(WafAlertScreen);
