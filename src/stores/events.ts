/**
 * Security events of the URL's space: the event log's first page with its histogram, its facets, one event's detail,
 * the overview's charts, this month's usage and the saved searches. A search is keyed by its query and absolute
 * window, so a new search is a new key and an answer that comes after the search changed is dropped.
 */
import { atom, computed, type ReadableAtom } from 'nanostores';
import { call, client } from '../lib/api.ts';
import { apiStore, type KeyPart } from './fetcher.ts';
import { $spaceId } from './route.ts';

/** One search of the events: a query in the event query language and the absolute window it covers (RFC 3339). */
export interface EventSearch {
  readonly q: string;
  readonly from: string;
  readonly to: string;
}

/** Rows of one page of the event log (the API's maximum); later pages are asked for by cursor as the table scrolls. */
export const EVENT_PAGE_SIZE = 500;

/** The space and a search's query, from and to as key parts (none known while the search is undefined). */
function searchKey($search: ReadableAtom<EventSearch | undefined>): KeyPart[] {
  return [
    $spaceId,
    computed($search, (search) => search?.q),
    computed($search, (search) => search?.from),
    computed($search, (search) => search?.to),
  ];
}

const events = client.spaces[':spaceId'].events;

/** What the event log shows: set by the screen from the URL's view (a relative range resolved when searched). */
export const $eventSearch = atom<EventSearch | undefined>(undefined);
const logKey = searchKey($eventSearch);

/**
 * The event log's first page of matches (newest first) and their counts over time, asked for together and shown
 * together, with the search they answer (later pages are asked for with the same query and window).
 */
export const $eventResults = apiStore('event-results', logKey, async (spaceId, q, from, to) => {
  const [page, histogram] = await Promise.all([
    call(events.$get({ param: { spaceId }, query: { q, from, to, limit: String(EVENT_PAGE_SIZE) } })),
    call(events.histogram.$get({ param: { spaceId }, query: { q, from, to, buckets: '60' } })),
  ]);
  const search: EventSearch = { q, from, to };
  return { search, page, histogram };
});

/** One event with its raw record (the page's rows leave it out): asked for when the event log's drawer opens one. */
export function loadEvent(spaceId: string, eventId: string) {
  return call(events[':eventId'].$get({ param: { spaceId, eventId } }));
}

/** The event log's facets: the slow call over large ranges, so a store of its own that fills in when it comes. */
export const $eventFacets = apiStore('event-facets', logKey, (spaceId, q, from, to) =>
  call(events.facets.$get({ param: { spaceId }, query: { q, from, to } })),
);

/** The overview's window (all events): set by the screen from its time range select. */
export const $overviewSearch = atom<EventSearch | undefined>(undefined);
const overviewKey = searchKey($overviewSearch);

/** The overview's charts: requests and blocked requests over time, and the facets with every country for the map. */
export const $overviewCharts = apiStore('overview-charts', overviewKey, async (spaceId, q, from, to) => {
  const [histogram, facets] = await Promise.all([
    call(events.histogram.$get({ param: { spaceId }, query: { q, from, to, buckets: '48' } })),
    call(events.facets.$get({ param: { spaceId }, query: { q, from, to, size: '250' } })),
  ]);
  return { histogram, facets };
});

/** This month's ingest against the plan's quota, and what was refused past it. */
export const $eventUsage = apiStore('event-usage', [$spaceId], (spaceId) =>
  call(events.usage.$get({ param: { spaceId } })),
);

/** Saved searches shown in one page (the rest by "Show more"). */
export const SAVED_SEARCH_PAGE_SIZE = 100;

/** The first page of the space's saved searches. */
export const $savedSearches = apiStore('saved-searches', [$spaceId], (spaceId) =>
  call(
    client.spaces[':spaceId']['saved-searches'].$get({
      param: { spaceId },
      query: { limit: String(SAVED_SEARCH_PAGE_SIZE) },
    }),
  ),
);
