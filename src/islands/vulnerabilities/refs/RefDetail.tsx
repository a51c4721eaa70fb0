import type { VulnRefDetail } from '../../../../contract/vuln-refs.ts';
import { LazyMarkdown } from '../../markdown/LazyMarkdown.tsx';
import { dateTime } from '../../shared/format.ts';
import { VulnSeverityBadge } from '../VulnSeverityBadge.tsx';

const sourceWords: Record<VulnRefDetail['severitySource'], string> = {
  cvss: 'from its CVSS vector',
  ecosystem: 'the ecosystem’s own rating (no CVSS vector)',
  none: 'no severity given',
};

/** External links open in a new tab without handing it the opener. */
function External({ href, children }: { readonly href: string; readonly children: string }) {
  const safe = /^https?:\/\//i.test(href);
  if (!safe) return <span className="sg-mono">{children}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/** One record: summary, severity with its vectors' parts, details as Markdown, affected packages, references. */
export function RefDetail({ record, onClose }: { readonly record: VulnRefDetail; readonly onClose: () => void }) {
  return (
    <article className="sg-vr-detail" aria-labelledby="sg-vr-detail-heading">
      <div className="row sg-vr-detail-head">
        <h3 id="sg-vr-detail-heading" className="sg-mono">
          {record.id}
        </h3>
        <VulnSeverityBadge severity={record.severity} score={record.score} />
        {record.withdrawn && <span className="sg-vr-tag">withdrawn {dateTime(record.withdrawn)}</span>}
        <button type="button" className="button secondary sg-vr-back" onClick={onClose}>
          Back to the list
        </button>
      </div>
      {record.withdrawn && (
        <p className="sg-vr-note">This record was withdrawn: it is kept in the library but never matched.</p>
      )}
      <p className="sg-vr-summary">{record.summary || 'No summary.'}</p>
      <dl className="sg-vr-facts">
        <div>
          <dt>Aliases</dt>
          <dd className="sg-mono">{record.aliases.length ? record.aliases.join(', ') : 'none'}</dd>
        </div>
        {record.related.length > 0 && (
          <div>
            <dt>Related</dt>
            <dd className="sg-mono">{record.related.join(', ')}</dd>
          </div>
        )}
        <div>
          <dt>Published</dt>
          <dd>{record.published ? dateTime(record.published) : 'unknown'}</dd>
        </div>
        <div>
          <dt>Modified</dt>
          <dd>{record.modified ? dateTime(record.modified) : 'unknown'}</dd>
        </div>
      </dl>

      <section aria-labelledby="sg-vr-severity-heading">
        <h4 id="sg-vr-severity-heading">Severity</h4>
        <p>
          {record.score !== null ? `${record.score.toFixed(1)}, ` : ''}
          {record.severity}: {sourceWords[record.severitySource]}.
        </p>
        {record.severities.map((entry) => (
          <div key={`${entry.type} ${entry.vector}`} className="sg-vr-vector">
            <p>
              <strong>{entry.version ? `CVSS ${entry.version}` : entry.type}</strong>{' '}
              {entry.score !== null && (
                <>
                  score {entry.score.toFixed(1)}, {entry.rating}{' '}
                </>
              )}
              <code className="sg-vr-vector-text">{entry.vector}</code>
            </p>
            {entry.problem && <p className="muted">{entry.problem}</p>}
            {entry.metrics.length > 0 && (
              <ul className="sg-vr-metrics" aria-label={`Parts of the CVSS ${entry.version ?? ''} vector`}>
                {entry.metrics.map((metric) => (
                  <li key={metric.key}>
                    <abbr title={metric.name}>{metric.key}</abbr> {metric.name}: <strong>{metric.valueName}</strong>
                  </li>
                ))}
              </ul>
            )}
          </div>
        ))}
      </section>

      {record.details && (
        <section aria-labelledby="sg-vr-details-heading">
          <h4 id="sg-vr-details-heading">Details</h4>
          <LazyMarkdown source={record.details} className="sg-vr-markdown" />
        </section>
      )}

      <section aria-labelledby="sg-vr-affected-heading">
        <h4 id="sg-vr-affected-heading">Affected packages</h4>
        {record.affected.length === 0 ? (
          <p className="muted">The record names no package.</p>
        ) : (
          <ul className="sg-vr-affected">
            {record.affected.map((entry, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: affected entries have no identity of their own and never move
              <li key={`${entry.ecosystem}:${entry.name}:${index}`}>
                <p>
                  <strong className="sg-mono">{entry.name || '(no package)'}</strong> in{' '}
                  {entry.ecosystem || 'no ecosystem'}
                  {entry.severity && <> (rated {entry.severity})</>}
                  {!entry.matched && !record.withdrawn && (
                    <span className="muted"> — not matched: Spaceguard does not order this ecosystem’s versions</span>
                  )}
                </p>
                {entry.ranges.map((range, rangeIndex) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: ranges have no identity of their own and never move
                  <ul key={`${range.type}-${rangeIndex}`} className="sg-vr-ranges" aria-label={`${range.type} range`}>
                    {range.words.map((words) => (
                      <li key={words}>{words}</li>
                    ))}
                  </ul>
                ))}
                {entry.versions.length > 0 && (
                  <details>
                    <summary>{entry.versions.length} listed versions</summary>
                    <p className="sg-mono sg-vr-versions">{entry.versions.join(', ')}</p>
                  </details>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="sg-vr-references-heading">
        <h4 id="sg-vr-references-heading">References</h4>
        {record.references.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <ul className="sg-vr-references">
            {record.references.map((ref) => (
              <li key={`${ref.type} ${ref.url}`}>
                <span className="sg-vr-tag">{ref.type.toLowerCase()}</span>{' '}
                <External href={ref.url}>{ref.url}</External>
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}
