import { firewallModeLabels } from '../../../contract/constants/firewalls.ts';
import type { FirewallSummary } from '../../../contract/firewalls.ts';
import { buildPath } from '../../lib/routes.ts';
import { dateTime } from '../shared/format.ts';
import { relativeTime } from '../shared/relative-time.ts';
import { Sparkline } from '../shared/Sparkline.tsx';
import { TableScroll } from '../shared/TableScroll.tsx';
import { connectorText } from './connector-state.ts';
import { DeleteFirewall } from './DeleteFirewall.tsx';

interface Props {
  readonly spaceId: string;
  readonly firewalls: readonly FirewallSummary[];
  readonly now: number;
  /** Admins and owners get a Delete button on each row. */
  readonly canDelete: boolean;
  readonly onDeleted: (name: string) => void;
}

/** The firewalls of a space: where they listen and forward, their mode, what the connector applied, and 24 h figures. */
export function FirewallsTable({ spaceId, firewalls, now, canDelete, onDeleted }: Props) {
  return (
    <TableScroll label="Firewalls table">
      <table className="data sg-fw-table" aria-label="Firewalls">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Hostnames</th>
            <th scope="col">Upstream</th>
            <th scope="col">Mode</th>
            <th scope="col">Connector</th>
            <th scope="col" className="sg-num">
              Events, 24 h
            </th>
            <th scope="col" className="sg-num">
              Blocked, 24 h
            </th>
            <th scope="col">Per hour</th>
            {canDelete && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {firewalls.map((firewall) => (
            <tr key={firewall.id}>
              <th scope="row">
                <a href={buildPath('/console/firewall/config/{space_id}/{id}', { space_id: spaceId, id: firewall.id })}>
                  {firewall.name}
                </a>
              </th>
              <td className="sg-mono">{firewall.hostnames.join(', ')}</td>
              <td className="sg-mono">{firewall.upstream}</td>
              <td>{firewallModeLabels[firewall.mode]}</td>
              <td>
                <span className={firewall.connector.state === 'failed' ? 'sg-has-errors' : undefined}>
                  {connectorText(firewall.connector)}
                </span>
                {firewall.connector.lastSeenAt && (
                  <span className="sg-when__abs">
                    {' '}
                    · last seen{' '}
                    <time dateTime={firewall.connector.lastSeenAt} title={dateTime(firewall.connector.lastSeenAt)}>
                      {relativeTime(firewall.connector.lastSeenAt, now)}
                    </time>
                  </span>
                )}
                <span className="sg-when__abs"> · newest version {firewall.version}</span>
              </td>
              <td className="sg-num">{firewall.events24h.toLocaleString('en')}</td>
              <td className="sg-num">{firewall.blocked24h.toLocaleString('en')}</td>
              <td className="sg-fw-spark">
                <Sparkline
                  className="sg-sparkline"
                  series={[
                    firewall.hourly.map((bucket) => bucket.events),
                    firewall.hourly.map((bucket) => bucket.blocked),
                  ]}
                  label={`Events and blocked requests per hour for ${firewall.name}, last 24 hours`}
                  height={36}
                />
              </td>
              {canDelete && (
                <td>
                  <DeleteFirewall spaceId={spaceId} id={firewall.id} name={firewall.name} onDeleted={onDeleted} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
