import { useEffect, useRef, useState } from 'react';
import {
  ecosystems,
  findingStatuses,
  findingStatusLabels,
  vulnSeverities,
  vulnSeverityLabels,
} from '../../../../contract/constants/vulns.ts';
import { apiUrl } from '../../../lib/api.ts';
import {
  $findingId,
  $findingListQuery,
  $findings,
  $findingTrend,
  loadFindings,
  triageFindings,
} from '../../../stores/findings.ts';
import { Alert } from '../../shared/Alert.tsx';
import { countOf } from '../../shared/format.ts';
import { Problem } from '../../shared/Problem.tsx';
import { SeverityBadge } from '../../shared/SeverityBadge.tsx';
import { useApi } from '../../shared/use-api.ts';
import { usePagedList } from '../../shared/use-paged-list.ts';
import { submitErrors } from '../../shared/use-submit.ts';
import { AssessButton } from '../AssessButton.tsx';
import { FindingPanel } from './FindingPanel.tsx';
import { FindingsTable } from './FindingsTable.tsx';
import { FindingTrend } from './FindingTrend.tsx';
import { TriageForm } from './TriageForm.tsx';

interface Props {
  readonly spaceId: string;
  readonly canTriage: boolean;
  readonly canManage: boolean;
  readonly filters: Record<string, string>;
  readonly onFilters: (filters: Record<string, string>) => void;
  readonly onOpenAsset: (assetId: string) => void;
}

/** The findings filters as the API's query (`asset` is `assetId` there). */
function queryOf(filters: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters))
    if (value) params.set(name === 'asset' ? 'assetId' : name, value);
  return params.toString();
}

/**
 * The space's findings: open counts and the trend, filters kept in the URL, a page at a time, bulk triage (analysts),
 * "Assess all assets" (admins), VEX export of one asset, and a finding's panel with triage and its virtual patch.
 */
export function FindingsTab({ spaceId, canTriage, canManage, filters, onFilters, onOpenAsset }: Props) {
  const findings = useApi($findings);
  const trend = useApi($findingTrend);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [message, setMessage] = useState<string | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const query = queryOf(filters);
  const paged = usePagedList(query, findings.loaded.state === 'ready' ? findings.loaded.data : undefined, (cursor) =>
    loadFindings(spaceId, query, cursor),
  );

  useEffect(() => {
    $findingListQuery.set(query);
    setSelected(new Set());
  }, [query]);
  useEffect(() => () => $findingListQuery.set(undefined), []);

  const set = (name: string, value: string): void => onFilters({ ...filters, [name]: value });
  const open = (id: string): void => {
    opener.current = document.activeElement as HTMLElement | null;
    $findingId.set(id);
  };

  let list = null;
  if (findings.loaded.state === 'loading') list = <p role="status">Loading findings…</p>;
  else if (findings.loaded.state === 'error') list = <Problem error={findings.loaded.error} onRetry={findings.retry} />;
  else {
    const data = findings.loaded.data;
    const { items, nextCursor: next } = paged;
    const assetName = filters.asset ? items.find((f) => f.asset.id === filters.asset)?.asset.name : undefined;
    list = (
      <>
        <p className="sg-vu-counts" aria-live="polite">
          {findingStatuses.map((s) => `${findingStatusLabels[s]} ${data.counts.status[s]}`).join(' · ')}
        </p>
        {filters.asset && (
          <p className="row sg-vu-asset-filter">
            <span>
              Asset: <strong>{assetName ?? 'the chosen asset'}</strong>
            </span>
            <button type="button" className="button secondary" onClick={() => set('asset', '')}>
              All assets
            </button>
            <a className="button secondary" href={apiUrl(`/spaces/${spaceId}/assets/${filters.asset}/vex`)} download>
              Export VEX (CycloneDX)
            </a>
          </p>
        )}
        {canTriage && selected.size > 0 && (
          <TriageForm
            legend={`Triage ${countOf(selected.size, 'finding')}`}
            onTriage={async (change) => {
              const answer = await triageFindings(spaceId, { ids: [...selected], ...change });
              setMessage(`Updated ${countOf(answer.updated, 'finding')}.`);
              setSelected(new Set());
              paged.reset();
            }}
          />
        )}
        {items.length === 0 ? (
          <p className="muted">
            {query
              ? 'No finding matches these filters.'
              : 'No findings yet. Add assets with their components, import vulnerability records into the library, then assess.'}
          </p>
        ) : (
          <FindingsTable
            items={items}
            selected={canTriage ? selected : null}
            onSelect={setSelected}
            onOpen={open}
            onOpenAsset={onOpenAsset}
          />
        )}
        {next && (
          <button type="button" className="button secondary" disabled={paged.loading} onClick={() => paged.loadMore()}>
            {paged.loading ? 'Loading…' : 'Show more findings'}
          </button>
        )}
        {paged.error !== null && <Alert tone="error">{submitErrors(paged.error).error}</Alert>}
      </>
    );
  }

  const openCounts = findings.loaded.state === 'ready' ? findings.loaded.data.counts.open : null;
  return (
    <div className="sg-vu-findings">
      <div className="row sg-vu-findings-head">
        {openCounts && (
          <p className="sg-vu-open">
            Open:{' '}
            {vulnSeverities
              .filter((s) => s !== 'none')
              .map((s) => (
                <SeverityBadge key={s} severity={s}>
                  {vulnSeverityLabels[s]} {openCounts[s]}
                </SeverityBadge>
              ))}
          </p>
        )}
        {canManage && <AssessButton spaceId={spaceId} label="Assess all assets" />}
      </div>
      {message && <Alert tone="success">{message}</Alert>}
      <section aria-labelledby="sg-vu-trend-heading">
        <h3 id="sg-vu-trend-heading">Trend</h3>
        {trend.loaded.state === 'ready' ? (
          <FindingTrend trend={trend.loaded.data} />
        ) : trend.loaded.state === 'error' ? (
          <Problem error={trend.loaded.error} onRetry={trend.retry} />
        ) : (
          <p role="status">Loading the trend…</p>
        )}
      </section>
      <search className="sg-vu-filters" aria-label="Filter findings">
        <label>
          <span>Search</span>
          <input
            className="input"
            type="search"
            defaultValue={filters.q ?? ''}
            placeholder="CVE, id, package, summary"
            onKeyDown={(event) => {
              if (event.key === 'Enter') set('q', event.currentTarget.value.trim());
            }}
            onBlur={(event) => {
              if (event.currentTarget.value.trim() !== (filters.q ?? '')) set('q', event.currentTarget.value.trim());
            }}
          />
        </label>
        <label>
          <span>Status</span>
          <select value={filters.status ?? ''} onChange={(e) => set('status', e.target.value)}>
            <option value="">Any status</option>
            {findingStatuses.map((s) => (
              <option key={s} value={s}>
                {findingStatusLabels[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Severity</span>
          <select value={filters.severity ?? ''} onChange={(e) => set('severity', e.target.value)}>
            <option value="">Any severity</option>
            {vulnSeverities.map((s) => (
              <option key={s} value={s}>
                {vulnSeverityLabels[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Ecosystem</span>
          <select value={filters.ecosystem ?? ''} onChange={(e) => set('ecosystem', e.target.value)}>
            <option value="">Any ecosystem</option>
            {ecosystems.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </search>
      {list}
      <FindingPanel spaceId={spaceId} canTriage={canTriage} canManage={canManage} returnFocus={opener} />
    </div>
  );
}
