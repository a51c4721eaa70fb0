import { useStore } from '@nanostores/react';
import type { Options } from 'highcharts';
import { useEffect, useMemo, useState } from 'react';
import { planTerms } from '../../../contract/constants/plans.ts';
import { isProtectedRule, isScoringRule } from '../../../contract/crs.ts';
import { atLeast } from '../../../contract/roles.ts';
import { $crsMessages, crsMessage } from '../../stores/crs-messages.ts';
import { $eventUsage, $overviewCharts, $overviewSearch } from '../../stores/events.ts';
import { $spaceId } from '../../stores/route.ts';
import { useHydratedStore } from '../app/use-hydrated-store.ts';
import { withApp } from '../app/with-app.tsx';
import { sharedPageAccessibility } from '../charts/accessible.ts';
import { ChartTypeSelect } from '../charts/ChartTypeSelect.tsx';
import type { ChartType } from '../charts/chart-types.ts';
import { Highchart } from '../charts/Highchart.tsx';
import { Highmap } from '../charts/Highmap.tsx';
import { partialBucketZones } from '../charts/partial-bucket.ts';
import { logSourcesPath } from '../console/console-areas.ts';
import { Alert } from '../shared/Alert.tsx';
import { absoluteRange, parseRange, RANGES, type RangeKey } from '../shared/event-log-url.ts';
import { Loaded } from '../shared/Loaded.tsx';
import { navigate } from '../shared/navigate.ts';
import { Problem } from '../shared/Problem.tsx';
import { RemedyActions, useRemedyRole } from '../shared/RemedyActions.tsx';
import { useApi } from '../shared/use-api.ts';
import { useLastData } from '../shared/use-last-data.ts';
import './OverviewScreen.css';
import { OpenAlertsCard } from './OpenAlertsCard.tsx';
import { OpenFindingsCard } from './OpenFindingsCard.tsx';
import { eventLogLink, eventLogWindowLink } from './overview-links.ts';
import { SummaryStrip } from './SummaryStrip.tsx';
import { TopTable } from './TopTable.tsx';

/** This month's ingest against the plan's quota, and what was refused past it (docs/product.md §4). */
function UsageCard({ spaceId }: { spaceId: string }) {
  const { loaded, retry } = useApi($eventUsage);
  const usage = loaded.state === 'ready' ? loaded.data : null;
  return (
    <section className="card panel" aria-labelledby="usage-title">
      <h2 id="usage-title">Events this month</h2>
      {loaded.state === 'error' && <Problem error={loaded.error} onRetry={retry} />}
      {loaded.state === 'loading' && <p role="status">Loading usage…</p>}
      {usage && (
        <>
          <p>
            <strong>{usage.accepted.toLocaleString()}</strong> of {usage.quota.toLocaleString()} events on the{' '}
            {planTerms[usage.plan].label} plan ({Math.min(100, Math.floor((usage.accepted / usage.quota) * 100))}%).
          </p>
          <meter
            className="overview__meter"
            min={0}
            max={usage.quota}
            low={usage.quota * 0.8}
            high={usage.quota * 0.95}
            optimum={0}
            value={Math.min(usage.accepted, usage.quota)}
            aria-label="Share of the monthly event quota used"
          />
          {usage.refused > 0 ? (
            <Alert tone="error">
              {usage.refused.toLocaleString()} events were refused past the quota this month (the senders got 429 and
              nothing was stored). <a href={`/console/subscription/upgrade/${spaceId}`}>A higher plan</a> lifts it.
            </Alert>
          ) : (
            <p className="muted">No events refused this month.</p>
          )}
          <p className="muted">
            Month {usage.month} (UTC); the quota starts again on {new Date(usage.resetsAt).toLocaleDateString()}.
          </p>
        </>
      )}
    </section>
  );
}

/** The space at a glance over one time range: traffic, attacks by category, countries, top rules and IPs, severities. */
function OverviewScreen() {
  // The space is known only once hydrated: the first render matches the pre-rendered loading line.
  const spaceId = useHydratedStore($spaceId, undefined);
  const crsMessages = useStore($crsMessages);
  const [range, setRange] = useState<RangeKey>('24h');
  const [type, setType] = useState<ChartType>('spline');
  const { loaded, retry } = useApi($overviewCharts);
  // Analysts, admins and owners act on the top lists (block an address, exclude a rule); viewers read them.
  const canAct = atLeast(useRemedyRole(), 'analyst');
  // The charts of the last range stay while the next one loads.
  const data = useLastData(loaded);

  // The range as an absolute window ending now keys the charts' stores.
  useEffect(() => {
    $overviewSearch.set({ q: '', ...absoluteRange({ q: '', range, from: null, to: null }, Date.now()) });
    return () => $overviewSearch.set(undefined);
  }, [range]);

  const traffic = useMemo<Options>(() => {
    const buckets = data?.histogram.buckets ?? [];
    const width = (data?.histogram.intervalSeconds ?? 0) * 1000;
    const partial = partialBucketZones(
      buckets.map((b) => Date.parse(b.time)),
      width,
      Date.parse(data?.histogram.to ?? ''),
    );
    return {
      accessibility: sharedPageAccessibility(
        'Requests and blocked requests over the selected time range. Select a point to open its events in the event log.',
      ),
      xAxis: { type: 'datetime' },
      yAxis: { title: { text: 'Requests' }, allowDecimals: false },
      plotOptions: {
        series: {
          cursor: 'pointer',
          point: {
            events: {
              // A point opens the event log on its bucket (the blocked series with its filter).
              click() {
                if (!spaceId || typeof this.x !== 'number' || width === 0) return;
                const filter = this.series.index === 1 ? { field: 'action', value: 'blocked' } : undefined;
                const window = { from: new Date(this.x).toISOString(), to: new Date(this.x + width).toISOString() };
                navigate(eventLogWindowLink(spaceId, window, filter));
              },
            },
          },
        },
      },
      // The last bucket, still filling up to now, is dotted rather than read as a drop.
      series: [
        { type: 'spline', name: 'Requests', data: buckets.map((b) => [Date.parse(b.time), b.total]), ...partial },
        { type: 'spline', name: 'Blocked', data: buckets.map((b) => [Date.parse(b.time), b.blocked]), ...partial },
      ],
    };
  }, [data, spaceId]);
  const attacks = useMemo<Options>(() => {
    const tags = (data?.facets.tag ?? []).filter((row) => row.value.startsWith('attack-')).slice(0, 12);
    return {
      accessibility: sharedPageAccessibility(
        'Attack events by OWASP CRS category. Select a bar to open its events in the event log.',
      ),
      xAxis: { categories: tags.map((row) => row.value.replace(/^attack-/, '')) },
      yAxis: { title: { text: 'Events' }, allowDecimals: false },
      legend: { enabled: false },
      plotOptions: {
        series: {
          cursor: 'pointer',
          point: {
            events: {
              // A bar opens the event log filtered by its category's tag (Enter or Space on a focused bar too).
              click() {
                const tag = tags[this.index]?.value;
                if (spaceId && tag) navigate(eventLogLink(spaceId, range, { field: 'tag', value: tag }));
              },
            },
          },
        },
      },
      series: [{ type: 'column', name: 'Events', data: tags.map((row) => row.count) }],
    };
  }, [data, spaceId, range]);
  const countries = useMemo<Options>(
    () => ({
      accessibility: sharedPageAccessibility(
        'Events by client country. Select a country to open its events in the event log.',
      ),
      colorAxis: { min: 0 },
      plotOptions: {
        series: {
          cursor: 'pointer',
          point: {
            events: {
              // A country with events opens the event log filtered by it.
              click() {
                const code = (this.options as { code?: unknown }).code;
                if (spaceId && typeof code === 'string')
                  navigate(eventLogLink(spaceId, range, { field: 'country', value: code }));
              },
            },
          },
        },
      },
      series: [
        {
          type: 'map',
          name: 'Events',
          joinBy: ['iso-a2', 'code'],
          data: (data?.facets.country ?? []).map((row) => ({ code: row.value, value: row.count })),
        },
      ],
    }),
    [data, spaceId, range],
  );

  return (
    <Loaded spaceId={spaceId} retry={retry} loading={<p role="status">Loading the overview…</p>}>
      {(_none, _view, spaceId) => {
        const failed = loaded.state === 'error' ? loaded.error : null;
        // A rule that scores or decides is never excluded: that would switch the firewall off.
        const ruleActions = (value: string) =>
          /^\d+$/.test(value) &&
          !isProtectedRule(Number(value)) && (
            <RemedyActions spaceId={spaceId} ruleId={Number(value)} subject={`rule ${value}`} compact />
          );
        const ipActions = (value: string) => <RemedyActions spaceId={spaceId} ip={value} subject={value} compact />;
        return (
          <div className="overview">
            <div className="row overview__controls">
              <label htmlFor="overview-range">Time range</label>
              <select
                id="overview-range"
                className="input overview__range"
                value={range}
                onChange={(event) => setRange(parseRange(event.target.value) ?? range)}
              >
                {Object.keys(RANGES).map((key) => (
                  <option key={key} value={key}>
                    Last {key}
                  </option>
                ))}
              </select>
            </div>
            <SummaryStrip spaceId={spaceId} range={range} />
            {failed !== null && <Problem error={failed} onRetry={retry} />}
            {!data && failed === null && <p role="status">Loading the overview…</p>}
            {data && data.facets.total === 0 && (
              <Alert tone="info">
                No events in this range yet. Create a <a href={logSourcesPath(spaceId)}>log source</a> and send your
                firewall's audit log to it.
              </Alert>
            )}
            {data && (
              <div className="overview__grid">
                <section className="card panel overview__wide" aria-labelledby="traffic-title">
                  <div className="row overview__head">
                    <h2 id="traffic-title">Requests and blocked requests</h2>
                    <ChartTypeSelect value={type} onChange={setType} />
                  </div>
                  <Highchart
                    options={traffic}
                    type={type}
                    label="Requests and blocked requests over time"
                    height={280}
                  />
                </section>
                <section className="card panel" aria-labelledby="severity-title">
                  <h2 id="severity-title">By severity</h2>
                  <ul className="overview__counts">
                    {data.facets.severity.map((row) => (
                      <li key={row.value}>
                        <a href={eventLogLink(spaceId, range, { field: 'severity', value: row.value })}>{row.value}</a>
                        <a href={eventLogLink(spaceId, range, { field: 'severity', value: row.value })}>
                          <strong>{row.count.toLocaleString('en')}</strong>
                        </a>
                      </li>
                    ))}
                  </ul>
                  <p className="muted">
                    <a href={eventLogLink(spaceId, range)}>{data.facets.total.toLocaleString('en')} events</a> in all
                  </p>
                </section>
                <UsageCard spaceId={spaceId} />
                <OpenAlertsCard spaceId={spaceId} />
                <OpenFindingsCard spaceId={spaceId} />
                <section className="card panel" aria-labelledby="attacks-title">
                  <h2 id="attacks-title">Attacks by category</h2>
                  <Highchart options={attacks} label="Attack events by CRS category" height={260} />
                </section>
                <section className="card panel overview__wide" aria-labelledby="countries-title">
                  <h2 id="countries-title">Events by country</h2>
                  <Highmap
                    options={countries}
                    mapData="/maps/world-110m.json"
                    label="Events by client country"
                    height={320}
                  />
                </section>
                <TopTable
                  id="rules-title"
                  title="Top rules"
                  column="Rule"
                  // The rules that caused the verdict, not the anomaly-score verdict every blocked request carries.
                  rows={data.facets.rule.filter((row) => !isScoringRule(Number(row.value)))}
                  link={(value) => eventLogLink(spaceId, range, { field: 'rule', value })}
                  note={(value) => crsMessage(crsMessages, value)}
                  actions={canAct ? ruleActions : undefined}
                />
                <TopTable
                  id="ips-title"
                  title="Top client IPs"
                  column="Client IP"
                  rows={data.facets.ip}
                  link={(value) => eventLogLink(spaceId, range, { field: 'ip', value })}
                  actions={canAct ? ipActions : undefined}
                />
              </div>
            )}
          </div>
        );
      }}
    </Loaded>
  );
}

export default withApp(OverviewScreen);
