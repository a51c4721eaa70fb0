import { Fragment, useState } from 'react';
import type { Activity } from '../../../contract/activity.ts';
import { JsonViewer } from '../json-viewer/JsonViewer.tsx';
import { dateTime } from '../shared/format.ts';
import { TableScroll } from '../shared/TableScroll.tsx';

interface Props {
  readonly items: readonly Activity[];
}

function actorOf(item: Activity): string {
  if (item.actorName) return item.actorName;
  return item.actorId ? 'Former member' : 'System';
}

/** Audit records, newest first; each row opens its change in the JSON viewer. */
export function ActivityTable({ items }: Props) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string): void =>
    setOpen((before) => {
      const next = new Set(before);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <TableScroll label="Activity table">
      <table className="data sg-activity">
        <caption className="visually-hidden">Activity</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Object</th>
            <th scope="col">IP</th>
            <th scope="col">User agent</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const expanded = open.has(item.id);
            const detailId = `sg-change-${item.id}`;
            const hasChange = item.change !== null && item.change !== undefined;
            return (
              <Fragment key={item.id}>
                <tr>
                  <td className="sg-nowrap">
                    <time dateTime={item.createdAt}>{dateTime(item.createdAt)}</time>
                  </td>
                  <td>{actorOf(item)}</td>
                  <td className="sg-mono sg-nowrap">{item.action}</td>
                  <td>
                    {item.objectType}
                    {item.objectId && <div className="sg-mono muted">{item.objectId}</div>}
                  </td>
                  <td className="sg-mono sg-nowrap">{item.ip ?? '—'}</td>
                  <td className="sg-ua">{item.userAgent ?? '—'}</td>
                  <td>
                    {hasChange ? (
                      <button
                        type="button"
                        className="button secondary"
                        aria-label={`${expanded ? 'Hide' : 'Show'} the change of ${item.action}`}
                        aria-expanded={expanded}
                        aria-controls={expanded ? detailId : undefined}
                        onClick={() => toggle(item.id)}
                      >
                        {expanded ? 'Hide' : 'Show'}
                      </button>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                </tr>
                {expanded && (
                  <tr id={detailId} className="sg-change-row">
                    <td colSpan={7}>
                      <JsonViewer data={item.change} label={`Change of ${item.action}`} expandDepth={2} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
