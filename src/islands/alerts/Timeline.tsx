import type { TriageEntry } from '../../../contract/alerts.ts';
import { Markdown } from '../markdown/Markdown.tsx';
import { dateTime } from '../shared/format.ts';
import { When } from './When.tsx';

// A change's values in words: `status: acknowledged`, `assignee: Ada`.
function changeText(change: Readonly<Record<string, unknown>> | null): string {
  if (!change) return '';
  return Object.entries(change)
    .map(
      ([key, value]) =>
        `${key}: ${value === null ? 'none' : typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
    )
    .join(', ');
}

/** Every decision about the alert, oldest first: who, when, what, why, until when, and the notes in Markdown. */
export function Timeline({ entries, now }: { readonly entries: readonly TriageEntry[]; readonly now: number }) {
  return (
    <section className="card panel sg-al-timeline" aria-labelledby="sg-al-timeline-heading">
      <h3 id="sg-al-timeline-heading">Timeline</h3>
      {entries.length === 0 ? (
        <p className="muted">Nothing has happened to this alert yet.</p>
      ) : (
        <ol className="sg-al-entries">
          {entries.map((entry) => {
            const what = changeText(entry.change);
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
                {entry.note && <Markdown source={entry.note} className="sg-al-note" />}
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
    </section>
  );
}
