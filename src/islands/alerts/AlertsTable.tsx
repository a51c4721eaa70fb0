import type { Alert } from '../../../contract/alerts.ts';
import { buildPath } from '../../lib/routes.ts';
import { SeverityBadge } from '../shared/SeverityBadge.tsx';
import { TableScroll } from '../shared/TableScroll.tsx';
import { groupText } from './group-text.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { When } from './When.tsx';

interface Props {
  readonly spaceId: string;
  readonly alerts: readonly Alert[];
  readonly now: number;
  /** Analysts and up get a checkbox per row and one for the page. */
  readonly selectable: boolean;
  readonly selected: ReadonlySet<string>;
  readonly onSelect: (ids: readonly string[], on: boolean) => void;
}

/** The alerts of the list: severity, title (to the alert's page), rule, group, first and last seen, count, status, assignee. */
export function AlertsTable({ spaceId, alerts, now, selectable, selected, onSelect }: Props) {
  const all = alerts.length > 0 && alerts.every((alert) => selected.has(alert.id));
  return (
    <TableScroll label="Alerts table">
      <table className="data sg-al-table" aria-label="Alerts">
        <thead>
          <tr>
            {selectable && (
              <th scope="col" className="sg-al-check">
                <input
                  type="checkbox"
                  aria-label="Select all alerts on the page"
                  checked={all}
                  onChange={(event) =>
                    onSelect(
                      alerts.map((alert) => alert.id),
                      event.currentTarget.checked,
                    )
                  }
                />
              </th>
            )}
            <th scope="col">Severity</th>
            <th scope="col">Title</th>
            <th scope="col">Rule</th>
            <th scope="col">Group</th>
            <th scope="col">First seen</th>
            <th scope="col">Last seen</th>
            <th scope="col" className="sg-num">
              Count
            </th>
            <th scope="col">Status</th>
            <th scope="col">Assignee</th>
          </tr>
        </thead>
        <tbody>
          {alerts.map((alert) => (
            <tr key={alert.id}>
              {selectable && (
                <td className="sg-al-check">
                  <input
                    type="checkbox"
                    aria-label={`Select ${alert.title}`}
                    checked={selected.has(alert.id)}
                    onChange={(event) => onSelect([alert.id], event.currentTarget.checked)}
                  />
                </td>
              )}
              <td>
                <SeverityBadge severity={alert.severity} />
              </td>
              <th scope="row" className="sg-al-title">
                <a href={buildPath('/console/alert/{space_id}/{id}', { space_id: spaceId, id: alert.id })}>
                  {alert.title}
                </a>
              </th>
              <td>{alert.ruleName}</td>
              <td className="sg-mono sg-al-group-cell">{groupText(alert.group)}</td>
              <td className="sg-nowrap">
                <When iso={alert.firstSeen} now={now} />
              </td>
              <td className="sg-nowrap">
                <When iso={alert.lastSeen} now={now} />
              </td>
              <td className="sg-num">{alert.count.toLocaleString('en')}</td>
              <td>
                <StatusBadge alert={alert} now={now} />
              </td>
              <td className="sg-al-assignee">{alert.assignee?.name ?? <span className="muted">unassigned</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
