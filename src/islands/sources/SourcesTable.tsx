import { sourceKindLabels } from '../../../contract/constants/sources.ts';
import type { Source } from '../../../contract/sources.ts';
import { buildPath } from '../../lib/routes.ts';
import { TableScroll } from '../shared/TableScroll.tsx';
import { LastEvent } from './LastEvent.tsx';

interface Props {
  readonly spaceId: string;
  readonly sources: readonly Source[];
  readonly now: number;
}

/** The log sources of a space with their ingest rate, last event and refused lines. */
export function SourcesTable({ spaceId, sources, now }: Props) {
  return (
    <TableScroll label="Log sources table">
      <table className="data sg-sources-table" aria-label="Log sources">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
            <th scope="col" className="sg-num">
              Events, last hour
            </th>
            <th scope="col">Last event</th>
            <th scope="col" className="sg-num">
              Errors, last 24 h
            </th>
          </tr>
        </thead>
        <tbody>
          {sources.map((source) => (
            <tr key={source.id}>
              <th scope="row">
                <a href={buildPath('/console/siem/manage/{space_id}/{id}', { space_id: spaceId, id: source.id })}>
                  {source.name}
                </a>
              </th>
              <td>{sourceKindLabels[source.kind]}</td>
              <td className="sg-num">{source.eventsLastHour.toLocaleString()}</td>
              <td>
                <LastEvent at={source.lastEventAt} now={now} />
              </td>
              <td className={source.errorsLast24h > 0 ? 'sg-num sg-has-errors' : 'sg-num'}>
                {source.errorsLast24h.toLocaleString()}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
