import type { SourceDetail } from '../../../contract/sources.ts';
import { LastEvent } from './LastEvent.tsx';
import { retentionText } from './retention.ts';

interface Props {
  readonly source: SourceDetail;
  readonly spaceRetentionDays: number;
  readonly now: number;
}

/** The ingest figures of one source and how long its events are kept. */
export function SourceFigures({ source, spaceRetentionDays, now }: Props) {
  return (
    <dl className="sg-figures">
      <div>
        <dt>Events, last hour</dt>
        <dd className="sg-figures__value">{source.eventsLastHour.toLocaleString()}</dd>
      </div>
      <div>
        <dt>Last event</dt>
        <dd>
          <LastEvent at={source.lastEventAt} now={now} />
        </dd>
      </div>
      <div>
        <dt>Errors, last 24 h</dt>
        <dd className={source.errorsLast24h > 0 ? 'sg-figures__value sg-has-errors' : 'sg-figures__value'}>
          {source.errorsLast24h.toLocaleString()}
        </dd>
      </div>
      <div>
        <dt>Retention</dt>
        <dd>{retentionText(source.retentionDays, spaceRetentionDays)}</dd>
      </div>
    </dl>
  );
}
