/**
 * The event log's reads and writes, for the URL's space: a search's first page with its histogram, the pages after it,
 * its facets, one event, the saved searches (list, save, delete) and the export's download. The screen sets
 * `$eventSearch`; a new search is a new key, and an answer that comes after the search changed is dropped.
 */
import { atom } from 'nanostores';
import type { ExportFormat } from '../../contract/constants/events.ts';
import type { CreateSavedSearchBody } from '../../contract/saved-searches.ts';
import { call, client } from '../lib/api.ts';
import { type EventSearch, searchKey } from './event-search.ts';
import { apiStore, invalidateApi } from './fetcher.ts';
import { $spaceId } from './route.ts';

const events = client.spaces[':spaceId'].events;
const savedSearches = client.spaces[':spaceId']['saved-searches'];

/** Rows of one page of the event log (the API's maximum); later pages are asked for by cursor as the table scrolls. */
export const EVENT_PAGE_SIZE = 500;

/** What the event log shows: set by the screen from the URL's view (a relative range resolved when searched). */
export const $eventSearch = atom<EventSearch | undefined>(undefined);
const logKey = searchKey($eventSearch);

/** One page of the matches of `search`, newest first: the first (cursor null), or the one after `cursor`. */
export function loadEventPage(spaceId: string, search: EventSearch, cursor: string | null) {
  const { q, from, to } = search;
  const page = { q, from, to, limit: String(EVENT_PAGE_SIZE) };
  return call(events.$get({ param: { spaceId }, query: cursor ? { ...page, cursor } : page }));
}

/**
 * The event log's first page of matches (newest first) and their counts over time, asked for together and shown
 * together, with the search they answer (later pages are asked for with the same query and window).
 */
export const $eventResults = apiStore('event-results', logKey, async (spaceId, q, from, to) => {
  const search: EventSearch = { q, from, to };
  const [page, histogram] = await Promise.all([
    loadEventPage(spaceId, search, null),
    call(events.histogram.$get({ param: { spaceId }, query: { q, from, to, buckets: '60' } })),
  ]);
  return { search, page, histogram };
});

/** The event log's facets: the slow call over large ranges, so a store of its own that fills in when it comes. */
export const $eventFacets = apiStore('event-facets', logKey, (spaceId, q, from, to) =>
  call(events.facets.$get({ param: { spaceId }, query: { q, from, to } })),
);

/** One event with its raw record (the page's rows leave it out): asked for when the event log's drawer opens one. */
export function loadEvent(spaceId: string, eventId: string) {
  return call(events[':eventId'].$get({ param: { spaceId, eventId } }));
}

/** Saved searches shown in one page (the rest by "Show more"). */
export const SAVED_SEARCH_PAGE_SIZE = 100;

/** One page of the space's saved searches by name: the first (cursor null), or the one after `cursor`. */
export function loadSavedSearches(spaceId: string, cursor: string | null) {
  const limit = String(SAVED_SEARCH_PAGE_SIZE);
  return call(savedSearches.$get({ param: { spaceId }, query: cursor ? { limit, cursor } : { limit } }));
}

/** The first page of the space's saved searches. */
export const $savedSearches = apiStore('saved-searches', [$spaceId], (spaceId) => loadSavedSearches(spaceId, null));

/** Saves a search under a name unique in the space; the saved searches refresh. */
export async function saveSearch(spaceId: string, body: CreateSavedSearchBody) {
  const saved = await call(savedSearches.$post({ param: { spaceId }, json: body }));
  invalidateApi($savedSearches);
  return saved;
}

/** Deletes a saved search; the saved searches refresh. */
export async function deleteSavedSearch(spaceId: string, id: string): Promise<void> {
  await call(savedSearches[':id'].$delete({ param: { spaceId, id } }));
  invalidateApi($savedSearches);
}

/** What an export downloads: the matches of a search, as NDJSON or CSV. */
export interface EventExport extends EventSearch {
  readonly format: ExportFormat;
}

/**
 * Starts the download of an export: the answer whose body streams the file (`X-Total-Count` and the file name in its
 * headers), once the API has accepted the search; a refusal is thrown as ApiError. `signal` stops it.
 */
export function openEventExport(spaceId: string, { format, q, from, to }: EventExport, signal: AbortSignal) {
  return events.export.$get({ param: { spaceId }, query: { format, q, from, to } }, { init: { signal } });
}
