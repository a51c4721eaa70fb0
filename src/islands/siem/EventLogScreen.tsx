import { useStore } from '@nanostores/react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import type { Facets } from '../../../contract/event-search.ts';
import type { EventSummary } from '../../../contract/events.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { $crsMessages } from '../../stores/crs-messages.ts';
import { $eventFacets, $eventResults, $eventSearch, loadEvent, loadEventPage } from '../../stores/event-log.ts';
import type { EventSearch } from '../../stores/event-search.ts';
import { $spaceId } from '../../stores/route.ts';
import { $theme } from '../../stores/theme.ts';
import { withApp } from '../app/with-app.tsx';
import { ChartFrame } from '../charts/LazyChart.tsx';
import { Alert } from '../shared/Alert.tsx';
import {
  absoluteRange,
  addFilter,
  type EventLogView,
  eventPermalink,
  excludeFilter,
  parseRange,
  RANGES,
  readEventParam,
  readView,
  writeView,
} from '../shared/event-log-url.ts';
import { Loaded } from '../shared/Loaded.tsx';
import { Problem } from '../shared/Problem.tsx';
import { QueryBar, useQueryDraft } from '../shared/QueryBar.tsx';
import { useApi } from '../shared/use-api.ts';
import { useLastData } from '../shared/use-last-data.ts';
import { usePagedList } from '../shared/use-paged-list.ts';
import { replaceUrl, useUrlView } from '../shared/use-url-view.ts';
import { ACTION_COLORS, ACTION_SERIES } from './action-colors.ts';
import { EventTable } from './EventTable.tsx';
import { ExportButton } from './ExportButton.tsx';
import { SavedSearches } from './SavedSearches.tsx';
import '../shared/panels.css';
import './EventLogScreen.css';

// The drawer brings the JSON viewer and Leaflet (and their CSS): loaded when an event is first opened.
const EventDrawer = lazy(() => import('./EventDrawer.tsx').then((module) => ({ default: module.EventDrawer })));
// The histogram's options load with the chart's code, when it first draws; its frame keeps its place meanwhile.
const EventHistogram = lazy(() =>
  import('./EventHistogram.tsx').then((module) => ({ default: module.EventHistogram })),
);
const HISTOGRAM_FRAME = {
  label: 'Events over time by action: blocked, logged and allowed',
  height: 128,
  className: 'event-log__histogram',
} as const;

const FACETS: ReadonlyArray<[keyof Omit<Facets, 'total'>, string, string]> = [
  ['action', 'Action', 'action'],
  ['severity', 'Severity', 'severity'],
  ['country', 'Country', 'country'],
  ['rule', 'Rule', 'rule'],
  ['host', 'Host', 'host'],
];

/** The search a view stands for now: its query and its range as an absolute window. */
function searchOf(view: EventLogView, now: number): EventSearch {
  return { q: view.q, ...absoluteRange(view, now) };
}

/** The security event log: query bar, time range, histogram with navigator, facets, events and one event's detail. */
function EventLogScreen() {
  const spaceId = useStore($spaceId);
  // Every control searches what the bar shows: its text when it is valid, else the query the results are for.
  const query = useQueryDraft();
  const { setDraft, applied } = query;
  const results = useApi($eventResults);
  const facets = useApi($eventFacets);
  // The last answer stays on screen while the next search loads, as it did before stores.
  const shown = useLastData(results.loaded);
  // The pages after the first, by cursor as the table scrolls: a refreshed first page does not replace them, so
  // scrolled rows stay; a new search starts again from its first page.
  const list = usePagedList(
    shown ? JSON.stringify(shown.search) : '',
    shown?.page,
    async (cursor) =>
      shown && spaceId ? loadEventPage(spaceId, shown.search, cursor) : { items: [], nextCursor: null },
    { keepRows: true },
  );
  const [selected, setSelected] = useState<EventSummary | null>(null);
  const [permalinkError, setPermalinkError] = useState<unknown>(null);
  const messages = useStore($crsMessages);
  const closeDrawer = useCallback(() => {
    setSelected(null);
    // A drawer opened by a permalink leaves its event in the URL until it closes.
    replaceUrl((url) => url.searchParams.delete('event'));
  }, []);

  // The view is in the URL, read after hydration (the pre-rendered shell has none); searching it keys the stores.
  const [view, changeUrl] = useUrlView(readView, writeView, {
    onRead: (initial) => {
      setDraft(initial.q);
      $eventSearch.set(searchOf(initial, Date.now()));
    },
  });
  useEffect(() => () => $eventSearch.set(undefined), []);

  // A permalink (`?event=<id>`) opens that event's drawer, whatever the range shows.
  useEffect(() => {
    const eventId = readEventParam(location.search);
    if (!spaceId || !eventId) return;
    let live = true;
    loadEvent(spaceId, eventId).then(
      ({ raw: _raw, ...summary }) => live && setSelected(summary),
      (error: unknown) => live && setPermalinkError(error),
    );
    return () => {
      live = false;
    };
  }, [spaceId]);

  const change = useCallback(
    (next: EventLogView) => {
      changeUrl(next);
      $eventSearch.set(searchOf(next, Date.now()));
    },
    [changeUrl],
  );

  const filter = useCallback(
    (field: string, value: string, exclude: boolean) => {
      if (!view) return;
      const q = applied(view.q);
      const next = exclude ? excludeFilter(q, field, value) : addFilter(q, field, value);
      setDraft(next);
      change({ ...view, q: next });
    },
    [view, change, applied, setDraft],
  );

  // The table asks again as it scrolls: one page at a time, and none after a failure until Retry.
  const loadMore = (): void => {
    if (!list.loading && list.error === null) void list.loadMore();
  };

  // The buckets cover the whole window, so their sum is the number of matches.
  const total = useMemo(() => shown?.histogram.buckets.reduce((sum, bucket) => sum + bucket.total, 0) ?? 0, [shown]);
  const q = view?.q ?? '';
  const theme = useStore($theme);
  const zoom = useCallback(
    (min: number, max: number) =>
      change({ q: applied(q), range: null, from: new Date(min).toISOString(), to: new Date(max).toISOString() }),
    [q, change, applied],
  );

  return (
    <Loaded
      spaceId={spaceId}
      view={view}
      retry={results.retry}
      loading={
        <div className="event-log event-log--pending">
          <p role="status">Loading the event log…</p>
        </div>
      }
    >
      {(_none, view, spaceId) => {
        const { from, to } = absoluteRange(view, Date.now());
        const failed = results.loaded.state === 'error' ? results.loaded.error : null;
        return (
          <div className="event-log">
            <QueryBar
              query={query}
              id="event-query"
              label="Search events"
              placeholder="action:blocked tag:attack-sqli -country:FR"
              hint={`From ${new Date(from).toLocaleString()} to ${new Date(to).toLocaleString()}.`}
              onSearch={(q) => change({ ...view, q })}
              className="card panel event-log__bar"
            >
              <label className="visually-hidden" htmlFor="event-range">
                Time range
              </label>
              <select
                id="event-range"
                className="input event-log__range"
                value={view.range ?? 'custom'}
                onChange={(event) => {
                  const range = parseRange(event.target.value);
                  if (range) change({ q: applied(view.q), range, from: null, to: null });
                }}
              >
                {Object.keys(RANGES).map((key) => (
                  <option key={key} value={key}>
                    Last {key}
                  </option>
                ))}
                {view.range === null && <option value="custom">Zoomed range</option>}
              </select>
            </QueryBar>
            {failed !== null && <Problem error={failed} onRetry={results.retry} />}
            {permalinkError !== null && (
              <Alert tone="error">
                The linked event could not be opened:{' '}
                {permalinkError instanceof ApiError && permalinkError.status === 404
                  ? 'it is not stored in this space (it may have passed the retention period).'
                  : errorMessage(permalinkError)}
              </Alert>
            )}
            {list.error !== null && <Problem error={list.error} onRetry={() => void list.loadMore()} />}
            {!shown && failed === null && (
              <p role="status" className="event-log__pending">
                Loading events…
              </p>
            )}
            {shown && (
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
                  <nav
                    className="card panel event-log__facets"
                    aria-label="Facets"
                    aria-busy={facets.loaded.state !== 'ready'}
                  >
                    {facets.loaded.state === 'error' && <Problem error={facets.loaded.error} onRetry={facets.retry} />}
                    {facets.loaded.state === 'loading' && <p role="status">Counting values…</p>}
                    {facets.loaded.state === 'ready' &&
                      FACETS.map(([key, title, field]) => {
                        const values = facets.loaded.state === 'ready' ? facets.loaded.data[key] : [];
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
                                      onClick={() => filter(field, facet.value, false)}
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
                <div className="event-log__content">
                  <section className="card panel event-log__table" aria-labelledby="events-title">
                    <h2 id="events-title" className="visually-hidden">
                      Events
                    </h2>
                    <div className="row event-log__table-head">
                      <h3 id="histogram-title">
                        {total} events{shown.search.q ? ` matching ${shown.search.q}` : ''}
                      </h3>
                      <ul className="event-log__legend" aria-label="Histogram colours">
                        {ACTION_SERIES.map(([action, name]) => (
                          <li key={action}>
                            <span className="event-log__swatch" style={{ background: ACTION_COLORS[theme][action] }} />
                            {name}
                          </li>
                        ))}
                      </ul>
                      <ExportButton
                        spaceId={spaceId}
                        query={shown.search.q}
                        from={shown.search.from}
                        to={shown.search.to}
                      />
                    </div>
                    <Suspense fallback={<ChartFrame {...HISTOGRAM_FRAME} />}>
                      <EventHistogram {...HISTOGRAM_FRAME} histogram={shown.histogram} theme={theme} onZoom={zoom} />
                    </Suspense>
                    {list.items.length === 0 ? (
                      <Alert tone="info">
                        No events in this range{shown.search.q ? ' match the query' : ''}. Send events to a log source,
                        or widen the time range.
                      </Alert>
                    ) : (
                      <EventTable
                        rows={list.items}
                        total={total}
                        hasMore={list.nextCursor !== null && list.error === null}
                        loading={list.loading}
                        onLoadMore={loadMore}
                        onSelect={setSelected}
                        messages={messages}
                      />
                    )}
                  </section>
                </div>
              </div>
            )}
            {selected && (
              <Suspense fallback={<p role="status">Opening the event…</p>}>
                <EventDrawer
                  spaceId={spaceId}
                  event={selected}
                  onClose={closeDrawer}
                  messages={messages}
                  onFilter={filter}
                  permalink={eventPermalink(spaceId, view, selected.id)}
                />
              </Suspense>
            )}
          </div>
        );
      }}
    </Loaded>
  );
}

export default withApp(EventLogScreen);
