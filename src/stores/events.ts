/**
 * The overview's events of the URL's space: its charts over its window and this month's usage. The event log's reads
 * and writes are in event-log.ts.
 */
import { atom } from 'nanostores';
import { call, client } from '../lib/api.ts';
import { type EventSearch, searchKey } from './event-search.ts';
import { apiStore } from './fetcher.ts';
import { $spaceId } from './route.ts';

const events = client.spaces[':spaceId'].events;

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
