import type { Options } from 'highcharts';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { EventPage, Facets, Histogram } from '../../../contract/event-search.ts';
import type { Event } from '../../../contract/events.ts';
import { parseQuery } from '../../../contract/query/parse.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { withApp } from '../app/with-app.tsx';
import { Highstock } from '../charts/Highstock.tsx';
import { Alert } from '../shared/Alert.tsx';
import { LoadError } from '../shared/LoadError.tsx';
import { useSignedIn } from '../shared/use-signed-in.ts';
import { EventTable } from './EventTable.tsx';
import { ExportButton } from './ExportButton.tsx';
import {
  absoluteRange,
  addFilter,
  type EventLogView,
  RANGES,
  type RangeKey,
  readView,
  writeView,
} from './event-log-url.ts';
import { SavedSearches } from './SavedSearches.tsx';
import './EventLogScreen.css';

// The drawer brings the JSON viewer and Leaflet (and their CSS): loaded when an event is first opened.
const EventDrawer = lazy(() => import('./EventDrawer.tsx').then((module) => ({ default: module.EventDrawer })));

const FACETS: ReadonlyArray<[keyof Omit<Facets, 'total'>, string, string]> = [
  ['action', 'Action', 'action'],
  ['severity', 'Severity', 'severity'],
  ['country', 'Country', 'country'],
  ['rule', 'Rule', 'rule'],
  ['host', 'Host', 'host'],
];

/** Rows per page while scrolling (the API's maximum). */
const PAGE = 500;

/** One search's answers, with the absolute window they were asked for (later pages use the same window). */
type Data = { histogram: Histogram; window: { from: string; to: string } };
/** Facets come on their own: over a large range they take longest, and the table need not wait for them. */
type FacetState = { facets: Facets | null; failed: string | null };
type Rows = { items: Event[]; nextCursor: string | null; loading: boolean };

/** The security event log: query bar, time range, histogram with navigator, facets, events and one event's detail. */
function EventLogScreen() {
  const { me } = useSignedIn();
  const [spaceId, setSpaceId] = useState<string | null>(null);
  const [view, setView] = useState<EventLogView>({ q: '', range: '24h', from: null, to: null });
  const [draft, setDraft] = useState('');
  const [data, setData] = useState<Data | null>(null);
  const [facetState, setFacetState] = useState<FacetState>({ facets: null, failed: null });
  const [rows, setRows] = useState<Rows>({ items: [], nextCursor: null, loading: false });
  // Counts searches, so a page that arrives after the search changed is dropped.
  const generation = useRef(0);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<Event | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    setSpaceId(location.pathname.split('/').filter(Boolean).at(-1) ?? null);
    const initial = readView(location.search);
    setView(initial);
    setDraft(initial.q);
  }, []);

  const change = useCallback((next: EventLogView) => {
    history.replaceState(null, '', location.pathname + writeView(next));
    setView(next);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry trigger
  useEffect(() => {
    if (!me || !spaceId) return;
    const window = absoluteRange(view, Date.now());
    const filters = { q: view.q, ...window };
    const base = `/spaces/${spaceId}/events`;
    const current = ++generation.current;
    setError(null);
    setFacetState({ facets: null, failed: null });
    Promise.all([
      api<EventPage>(base, { query: { ...filters, limit: PAGE } }),
      api<Histogram>(`${base}/histogram`, { query: { ...filters, buckets: 60 } }),
    ]).then(
      ([page, histogram]) => {
        if (current !== generation.current) return;
        setData({ histogram, window });
        setRows({ items: page.items, nextCursor: page.nextCursor, loading: false });
      },
      (failure: unknown) => {
        if (current === generation.current) setError(errorMessage(failure));
      },
    );
    api<Facets>(`${base}/facets`, { query: filters }).then(
      (facets) => {
        if (current === generation.current) setFacetState({ facets, failed: null });
      },
      (failure: unknown) => {
        if (current === generation.current) setFacetState({ facets: null, failed: errorMessage(failure) });
      },
    );
  }, [me, spaceId, view, attempt]);

  const loadMore = useCallback(() => {
    if (!spaceId || !data || rows.loading || !rows.nextCursor) return;
    const current = generation.current;
    setRows((now) => ({ ...now, loading: true }));
    api<EventPage>(`/spaces/${spaceId}/events`, {
      query: { q: view.q, ...data.window, limit: PAGE, cursor: rows.nextCursor },
    }).then(
      (page) => {
        if (current !== generation.current) return;
        setRows((now) => ({ items: [...now.items, ...page.items], nextCursor: page.nextCursor, loading: false }));
      },
      (failure: unknown) => {
        if (current !== generation.current) return;
        setRows((now) => ({ ...now, loading: false }));
        setError(errorMessage(failure));
      },
    );
  }, [spaceId, data, rows.loading, rows.nextCursor, view.q]);

  const parsed = useMemo(() => parseQuery(draft), [draft]);
  // The buckets cover the whole window, so their sum is the number of matches.
  const total = useMemo(() => data?.histogram.buckets.reduce((sum, bucket) => sum + bucket.total, 0) ?? 0, [data]);
  const options = useMemo<Options>(() => {
    const points = data?.histogram.buckets ?? [];
    return {
      chart: { height: 260 },
      rangeSelector: { enabled: false },
      navigator: { enabled: true },
      scrollbar: { enabled: false },
      xAxis: {
        events: {
          afterSetExtremes(event) {
            // Only the user's zoom (navigator) narrows the range, not a redraw with new data.
            if (!event.trigger || event.min === undefined || event.max === undefined) return;
            change({
              q: view.q,
              range: null,
              from: new Date(event.min).toISOString(),
              to: new Date(event.max).toISOString(),
            });
          },
        },
      },
      series: [
        { type: 'column', name: 'All events', data: points.map((b) => [Date.parse(b.time), b.total]) },
        { type: 'column', name: 'Blocked', data: points.map((b) => [Date.parse(b.time), b.blocked]) },
      ],
    };
  }, [data, view.q, change]);

  if (!spaceId) return <p role="status">Loading the event log…</p>;
  const { from, to } = absoluteRange(view, Date.now());
  return (
    <div className="event-log">
      <form
        className="card panel event-log__bar"
        aria-label="Search events"
        onSubmit={(event) => {
          event.preventDefault();
          if (parsed.ok) change({ ...view, q: draft.trim() });
        }}
      >
        <label htmlFor="event-query">Query</label>
        <div className="row">
          <input
            id="event-query"
            className="input event-log__query"
            value={draft}
            spellCheck={false}
            placeholder="action:blocked tag:attack-sqli -country:FR"
            aria-invalid={parsed.ok ? undefined : true}
            aria-describedby="event-query-help"
            onChange={(event) => setDraft(event.target.value)}
          />
          <label className="visually-hidden" htmlFor="event-range">
            Time range
          </label>
          <select
            id="event-range"
            className="input event-log__range"
            value={view.range ?? 'custom'}
            onChange={(event) => change({ q: view.q, range: event.target.value as RangeKey, from: null, to: null })}
          >
            {Object.keys(RANGES).map((key) => (
              <option key={key} value={key}>
                Last {key}
              </option>
            ))}
            {view.range === null && <option value="custom">Zoomed range</option>}
          </select>
          <button type="submit" className="button" disabled={!parsed.ok}>
            Search
          </button>
        </div>
        <p id="event-query-help" className={parsed.ok ? 'field__hint' : 'field__error'}>
          {parsed.ok
            ? `From ${new Date(from).toLocaleString()} to ${new Date(to).toLocaleString()}.`
            : `${parsed.error.message} (at character ${parsed.error.position + 1})`}
        </p>
      </form>
      {error && <LoadError message={error} onRetry={() => setAttempt((n) => n + 1)} />}
      {!data && !error && <p role="status">Loading events…</p>}
      {data && (
        <>
          <section className="card panel" aria-labelledby="histogram-title">
            <h2 id="histogram-title">
              {total} events{view.q ? ` matching ${view.q}` : ''}
            </h2>
            <Highstock options={options} label="Events over time: all and blocked" height={260} />
          </section>
          <div className="event-log__main">
            <div className="event-log__side">
              <SavedSearches
                spaceId={spaceId}
                current={view}
                onApply={(next) => {
                  setDraft(next.q);
                  change(next);
                }}
              />
              <nav className="card panel event-log__facets" aria-label="Facets" aria-busy={facetState.facets === null}>
                {facetState.failed && (
                  <LoadError message={facetState.failed} onRetry={() => setAttempt((n) => n + 1)} />
                )}
                {!facetState.facets && !facetState.failed && <p role="status">Counting values…</p>}
                {facetState.facets &&
                  FACETS.map(([key, title, field]) => {
                    const values = (facetState.facets as Facets)[key];
                    return (
                      <section key={key} aria-label={title}>
                        <h3>{title}</h3>
                        {values.length === 0 ? (
                          <p className="muted">None</p>
                        ) : (
                          <ul>
                            {values.map((facet) => (
                              <li key={facet.value}>
                                <button
                                  type="button"
                                  className="facet"
                                  onClick={() => {
                                    const q = addFilter(view.q, field, facet.value);
                                    setDraft(q);
                                    change({ ...view, q });
                                  }}
                                >
                                  <span>{facet.value}</span> <span className="muted">{facet.count}</span>
                                </button>
                              </li>
                            ))}
                          </ul>
                        )}
                      </section>
                    );
                  })}
              </nav>
            </div>
            <section className="card panel event-log__table" aria-labelledby="events-title">
              <div className="row event-log__table-head">
                <h2 id="events-title">Events</h2>
                <ExportButton spaceId={spaceId} query={view.q} from={data.window.from} to={data.window.to} />
              </div>
              {rows.items.length === 0 ? (
                <Alert tone="info">
                  No events in this range{view.q ? ' match the query' : ''}. Send events to a log source, or widen the
                  time range.
                </Alert>
              ) : (
                <EventTable
                  rows={rows.items}
                  total={total}
                  hasMore={rows.nextCursor !== null}
                  loading={rows.loading}
                  onLoadMore={loadMore}
                  onSelect={setSelected}
                />
              )}
            </section>
          </div>
        </>
      )}
      {selected && (
        <Suspense fallback={<p role="status">Opening the event…</p>}>
          <EventDrawer event={selected} onClose={() => setSelected(null)} />
        </Suspense>
      )}
    </div>
  );
}

export default withApp(EventLogScreen);
