import type { OverviewSummary } from '../../../contract/overview.ts';
import { buildPath } from '../../lib/routes.ts';
import { $overviewSummary } from '../../stores/overview.ts';
import { readAlertView, writeAlertView } from '../shared/alert-url.ts';
import { writeAssessmentView } from '../shared/assessment-url.ts';
import { RANGES, type RangeKey } from '../shared/event-log-url.ts';
import { Problem } from '../shared/Problem.tsx';
import { useApi } from '../shared/use-api.ts';
import { useLastData } from '../shared/use-last-data.ts';
import { type Change, countChange, percentText, periodWords, rateChange } from './change-text.ts';
import { eventLogLink } from './overview-links.ts';

/** One number of the strip: what it counts, where it leads, how it changed, and what it means when that needs saying. */
interface Tile {
  readonly key: string;
  readonly label: string;
  readonly value: string;
  readonly href: string;
  readonly change: Change;
  readonly note?: string;
}

const arrows = { up: '▲', down: '▼', same: '' } as const;
const count = (n: number) => n.toLocaleString('en');

/** The range key a summary's window spans (the overview's ranges end now), or null for any other window. */
function rangeOf(summary: OverviewSummary): RangeKey | null {
  const span = Date.parse(summary.to) - Date.parse(summary.from);
  return (Object.keys(RANGES) as RangeKey[]).find((key) => RANGES[key] === span) ?? null;
}

/** The strip's tiles from the summary: each number with its change against the previous period of equal length. */
function tiles(summary: OverviewSummary, spaceId: string, range: RangeKey): Tile[] {
  const period = periodWords(range);
  const alerts = buildPath('/console/alert/{space_id}', { space_id: spaceId });
  const assessment = buildPath('/console/vulnerabilities/assessment/{space_id}', { space_id: spaceId });
  const blocked = eventLogLink(spaceId, range, { field: 'action', value: 'blocked' });
  return [
    {
      key: 'requests',
      label: 'Requests',
      value: count(summary.requests.current),
      href: eventLogLink(spaceId, range),
      change: countChange(summary.requests.current, summary.requests.previous, period),
    },
    {
      key: 'blocked',
      label: 'Blocked',
      value: count(summary.blocked.current),
      href: blocked,
      change: countChange(summary.blocked.current, summary.blocked.previous, period),
    },
    {
      key: 'block-rate',
      label: 'Block rate',
      value: percentText(summary.blockRate.current),
      href: blocked,
      change: rateChange(summary.blockRate.current, summary.blockRate.previous, period),
    },
    {
      key: 'client-ips',
      label: 'Client IPs',
      value: count(summary.clientIps.current),
      href: eventLogLink(spaceId, range),
      change: countChange(summary.clientIps.current, summary.clientIps.previous, period),
      note: 'distinct addresses',
    },
    {
      key: 'open-alerts',
      label: 'Open alerts',
      value: count(summary.openAlerts.now),
      href: alerts + writeAlertView({ ...readAlertView(''), status: ['open'] }),
      change: countChange(summary.openAlerts.new.current, summary.openAlerts.new.previous, period),
      note: `open now; ${count(summary.openAlerts.new.current)} first seen in the last ${period}`,
    },
    {
      key: 'critical-findings',
      label: 'Critical findings',
      value: count(summary.criticalFindings.now),
      href:
        assessment +
        writeAssessmentView({ tab: 'findings', asset: null, filters: { status: 'open', severity: 'critical' } }),
      change: countChange(summary.criticalFindings.new.current, summary.criticalFindings.new.previous, period),
      note: `open now; ${count(summary.criticalFindings.new.current)} found in the last ${period}`,
    },
  ];
}

/**
 * The overview's first line: requests, blocked, block rate, client IPs, open alerts and critical
 * findings, each linking to where it is listed, with its change against the previous period said in words.
 */
export function SummaryStrip({ spaceId, range }: { readonly spaceId: string; readonly range: RangeKey }) {
  const { loaded, retry } = useApi($overviewSummary);
  // The last numbers stay (dimmed) while a new range loads, so the page does not jump; they keep their own range.
  const data = useLastData(loaded);
  const shown = data ? (rangeOf(data) ?? range) : range;
  const refreshing = loaded.state !== 'ready' || loaded.refreshing;
  return (
    <section className="card panel overview__summary" aria-labelledby="summary-title" aria-busy={refreshing}>
      <h2 id="summary-title" className="visually-hidden">
        Summary of the last {periodWords(range)}
      </h2>
      {loaded.state === 'error' && (
        <>
          <p>The summary could not be loaded.</p>
          <Problem error={loaded.error} onRetry={retry} />
        </>
      )}
      {!data && loaded.state === 'loading' && (
        <p role="status" className="overview__summary-loading">
          Loading the summary…
        </p>
      )}
      {data && loaded.state !== 'error' && (
        <ul className={`overview__tiles${shown === range ? '' : ' overview__tiles--stale'}`}>
          {tiles(data, spaceId, shown).map((tile) => (
            <li key={tile.key} className="overview__tile" data-tile={tile.key}>
              <a href={tile.href} className="overview__tile-link">
                <span className="overview__tile-label">{tile.label}</span>{' '}
                <strong className="overview__tile-value">{tile.value}</strong>
              </a>
              {tile.note && <span className="overview__tile-note muted">{tile.note}</span>}
              <span className={`overview__tile-change overview__tile-change--${tile.change.direction}`}>
                {arrows[tile.change.direction] && <span aria-hidden="true">{arrows[tile.change.direction]} </span>}
                {tile.change.text}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="muted overview__summary-note">
        Each change compares with the {periodWords(shown)} just before. Alerts and findings count what is open now;
        their change compares how many were first seen in each period.
      </p>
    </section>
  );
}
