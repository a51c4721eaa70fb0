import { useStore } from '@nanostores/react';
import { useRef, useState } from 'react';
import { type FirewallMode, firewallModeLabels } from '../../../contract/constants/firewalls.ts';
import { atLeast } from '../../../contract/roles.ts';
import type { WafAlertContext, WafRequest } from '../../../contract/waf.ts';
import { buildPath } from '../../lib/routes.ts';
import { $alert, $wafAlert } from '../../stores/alerts.ts';
import { invalidateApi } from '../../stores/fetcher.ts';
import { $members } from '../../stores/members.ts';
import { $routeId, $spaceId } from '../../stores/route.ts';
import { $me } from '../../stores/session.ts';
import { $space } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { LazyRemedyDialog } from '../shared/LazyRemedyDialog.tsx';
import { Loaded } from '../shared/Loaded.tsx';
import type { RemedyDraft } from '../shared/RemedyDialog.tsx';
import { TableScroll } from '../shared/TableScroll.tsx';
import { all, useApi } from '../shared/use-api.ts';
import { AlertHeader } from './AlertHeader.tsx';
import { QuickActions } from './QuickActions.tsx';
import { Timeline } from './Timeline.tsx';
import { When } from './When.tsx';
import '../shared/panels.css';
import '../shared/console-screens.css';
import './alerts.css';

/** A firewall mode in words ("Detect only"), or the stored word when it is not one the console knows. */
const modeText = (mode: string): string => firewallModeLabels[mode as FirewallMode] ?? mode;

/** The remedies the alert's requests suggest: block its address, and exclude each rule that fired on each path. */
function remediesOf(group: Record<string, string>, requests: readonly WafRequest[]) {
  const ips = new Set(requests.map((r) => r.ip).filter((ip): ip is string => Boolean(ip)));
  const ip = group.ip || (ips.size === 1 ? [...ips][0] : undefined);
  const exclusions = new Map<string, { ruleId: number; path: string }>();
  for (const request of requests) {
    const path = request.path ?? '/';
    // The anomaly-score rules decide blocking: excluding one would switch the firewall off, so they are not offered.
    for (const rule of request.rules.filter((r) => r.message !== null && !/Anomaly Score Exceeded/i.test(r.message))) {
      exclusions.set(`${rule.id} ${path}`, { ruleId: rule.id, path });
      if (exclusions.size >= 5) break;
    }
  }
  return { ip, exclusions: [...exclusions.values()] };
}

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
  const spaceId = useStore($spaceId);
  const alertId = useStore($routeId);
  const me = useStore($me);
  const space = useApi($space);
  const alert = useApi($alert);
  const context = useApi($wafAlert);
  const members = useApi($members);
  const [done, setDone] = useState<string | null>(null);
  const [remedy, setRemedy] = useState<{ draft: RemedyDraft; key: number } | null>(null);
  const [remedyOpen, setRemedyOpen] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const loaded = all(space.loaded, alert.loaded, context.loaded, members.loaded);
  const retry = (): void => {
    space.retry();
    alert.retry();
    context.retry();
    members.retry();
  };
  const changed = (message: string): void => {
    setDone(message);
  };
  const propose = (draft: RemedyDraft, button: HTMLElement): void => {
    opener.current = button;
    setRemedy((now) => ({ draft, key: (now?.key ?? 0) + 1 }));
    setRemedyOpen(true);
  };

  const alertsList = spaceId ? buildPath('/console/alert/{space_id}', { space_id: spaceId }) : '/spaces';
  const body = (
    <Loaded
      spaceId={alertId === null ? null : spaceId}
      loaded={loaded}
      retry={retry}
      loading="Loading the WAF alert…"
      notFound="This WAF alert does not exist, its events came from another firewall, or it belongs to a space you are not a member of."
      back={{ href: alertsList, label: 'Go to the alerts' }}
    >
      {(data) => {
        const [{ id, role }, detail, wafContext, { items: memberItems }] = data;
        const canWork = atLeast(role, 'analyst');
        const canApply = atLeast(role, 'admin');
        const now = Date.now();
        const { ip, exclusions } = remediesOf(detail.group, wafContext.requests);
        return (
          <>
            <p className="sg-al-links">
              <a href={buildPath('/console/alert/{space_id}', { space_id: id })}>← All alerts</a>
              {' · '}
              <a href={buildPath('/console/alert/{space_id}/{id}', { space_id: id, id: detail.id })}>
                Notes and notifications of this alert
              </a>
            </p>
            <AlertHeader alert={detail} now={now} />
            <FirewallFacts spaceId={id} context={wafContext} />
            {done && <Alert tone="success">{done}</Alert>}
            <section className="card panel" aria-labelledby="sg-waf-remedies">
              <h3 id="sg-waf-remedies">Remedies</h3>
              <p className="muted">
                Each remedy shows how many requests of the last 7 days it would have affected, and the configuration
                diff, before {canApply ? 'you apply it' : 'an admin applies it'}: it becomes the firewall’s next
                version.
              </p>
              <div className="sg-al-remedies">
                {ip && (
                  <button
                    type="button"
                    className="button"
                    onClick={(event) => propose({ kind: 'block-ip', ip }, event.currentTarget)}
                  >
                    Block {ip}
                  </button>
                )}
                {exclusions.map((e) => (
                  <button
                    key={`${e.ruleId} ${e.path}`}
                    type="button"
                    className="button"
                    onClick={(event) =>
                      propose({ kind: 'exclude-rule', ruleId: e.ruleId, path: e.path }, event.currentTarget)
                    }
                  >
                    Exclude rule {e.ruleId} on {e.path}
                  </button>
                ))}
                {!ip && exclusions.length === 0 && <p className="muted">The kept requests suggest no remedy.</p>}
              </div>
            </section>
            {canWork && (
              <QuickActions
                key={`${detail.status}-${detail.assignee?.id ?? ''}-${detail.snoozedUntil ?? ''}`}
                alert={detail}
                meId={me?.id ?? null}
                members={memberItems}
                onChanged={changed}
              />
            )}
            <section className="card panel" aria-labelledby="sg-waf-requests">
              <h3 id="sg-waf-requests">Triggering requests</h3>
              <Requests requests={wafContext.requests} now={now} />
            </section>
            <Timeline
              entries={detail.timeline}
              now={now}
              names={new Map(memberItems.map((member) => [member.userId, member.name]))}
            />
            {remedy && (
              <LazyRemedyDialog
                key={remedy.key}
                spaceId={id}
                firewalls={[{ id: wafContext.firewall.id, name: wafContext.firewall.name }]}
                firewallId={wafContext.firewall.id}
                remedy={remedy.draft}
                canApply={canApply}
                open={remedyOpen}
                onClose={() => {
                  setRemedyOpen(false);
                  invalidateApi($wafAlert);
                }}
                returnFocus={opener}
              />
            )}
          </>
        );
      }}
    </Loaded>
  );
  return (
    <section className="sg-al sg-al-one" aria-labelledby="sg-alert-heading">
      {loaded.state !== 'ready' && (
        <h2 id="sg-alert-heading" className="visually-hidden">
          WAF alert
        </h2>
      )}
      {body}
    </section>
  );
}

export default withApp(WafAlertScreen);
