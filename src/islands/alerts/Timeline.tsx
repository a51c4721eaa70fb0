import type { ReactNode } from 'react';
import type { TriageEntry } from '../../../contract/triage.ts';
import { LazyMarkdown } from '../markdown/LazyMarkdown.tsx';
import { dateTime } from '../shared/format.ts';
import { changeText } from './change-text.ts';
import { When } from './When.tsx';

interface Props {
  readonly entries: readonly TriageEntry[];
  readonly now: number;
  /** Members' names by user id, for assignee changes. */
  readonly names: ReadonlyMap<string, string>;
  /** The note form, for those who may add one. */
  readonly children?: ReactNode;
}

/** Every decision about the alert, oldest first: who, when, what, why, until when, and the notes in Markdown. */
export function Timeline({ entries, now, names, children }: Props) {
  return (
    <section className="card panel sg-al-timeline" aria-labelledby="sg-al-timeline-heading">
      <h3 id="sg-al-timeline-heading">Timeline</h3>
      {entries.length === 0 ? (
        <p className="muted">Nothing has happened to this alert yet.</p>
      ) : (
        <ol className="sg-al-entries">
          {entries.map((entry) => {
            const what = changeText(entry.change, names);
            return (
              <li key={entry.id} className="sg-al-entry">
                <p className="sg-al-entry__line">
                  <strong>{entry.actor.name ?? (entry.actor.id ? 'A former member' : 'Spaceguard')}</strong>{' '}
                  <span className="sg-al-entry__what">{entry.decision.replaceAll('_', ' ')}</span>
                  {what && <span className="muted"> ({what})</span>} · <When iso={entry.at} now={now} />
                </p>
                {entry.reason && <p className="sg-al-entry__why">Reason: {entry.reason}</p>}
                {entry.until && (
                  <p className="sg-al-entry__why">
                    Until <time dateTime={entry.until}>{dateTime(entry.until)}</time>
                  </p>
                )}
                {entry.note && <LazyMarkdown source={entry.note} className="sg-al-note" />}
                {entry.revokedAt && (
                  <p className="muted">
                    Revoked <When iso={entry.revokedAt} now={now} />
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {children}
    </section>
  );
}
