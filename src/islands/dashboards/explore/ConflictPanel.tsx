/** A save refused because someone saved first: both versions' changes side by side, and the way on. */
import { useEffect, useRef } from 'react';
import { modelOf } from '../../../../contract/dashboard-rules.ts';
import type { Dashboard, DashboardModel } from '../../../../contract/dashboards.ts';
import { dateTime } from '../../shared/format.ts';
import { describeChanges } from '../changes.ts';
import { downloadDashboard } from '../dashboard-file.ts';

interface Props {
  /** The version both edits started from. */
  readonly base: DashboardModel;
  readonly mine: DashboardModel;
  readonly theirs: Dashboard;
  readonly onKeepMine: () => void;
  readonly onTakeTheirs: () => void;
  readonly onCancel: () => void;
}

function Changes({ lines }: { lines: string[] }) {
  if (lines.length === 0) return <p className="muted">No changes.</p>;
  return (
    <ul>
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

export function ConflictPanel({ base, mine, theirs, onKeepMine, onTakeTheirs, onCancel }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const who = theirs.updatedBy.name ?? 'Someone';
  return (
    <section className="card panel sg-dash__conflict" aria-labelledby="conflict-title" role="alert">
      <h2 id="conflict-title" ref={heading} tabIndex={-1}>
        {who} saved this dashboard while you were editing it
      </h2>
      <p>
        Version {theirs.version} was saved {dateTime(theirs.updatedAt)}. Your changes are not saved yet; choose which
        version to keep.
      </p>
      <div className="sg-dash__conflict-sides">
        <section aria-labelledby="conflict-theirs">
          <h3 id="conflict-theirs">
            Their version ({theirs.version}, {theirs.widgets.length} widgets)
          </h3>
          <Changes lines={describeChanges(base, modelOf(theirs))} />
        </section>
        <section aria-labelledby="conflict-mine">
          <h3 id="conflict-mine">Your version ({mine.widgets.length} widgets)</h3>
          <Changes lines={describeChanges(base, mine)} />
        </section>
      </div>
      <div className="row">
        <button type="button" className="button" onClick={onKeepMine}>
          Save mine over theirs
        </button>
        <button type="button" className="button secondary" onClick={onTakeTheirs}>
          Discard mine and load theirs
        </button>
        <button type="button" className="button secondary" onClick={() => downloadDashboard(mine)}>
          Download mine as JSON
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          Keep editing
        </button>
      </div>
    </section>
  );
}
