/**
 * The overview's own reads: the summary strip over the overview's window and the period before it,
 * keyed by the same search as its charts (`$overviewSearch`), so a new range is a new key.
 */
import { computed } from 'nanostores';
import { call, client } from '../lib/api.ts';
import { $overviewSearch } from './events.ts';
import { apiStore } from './fetcher.ts';
import { $spaceId } from './route.ts';

/** Requests, blocked, block rate, client addresses, open alerts and critical findings, against the period before. */
export const $overviewSummary = apiStore(
  'overview-summary',
  [$spaceId, computed($overviewSearch, (search) => search?.from), computed($overviewSearch, (search) => search?.to)],
  (spaceId, from, to) =>
    call(client.spaces[':spaceId'].overview.summary.$get({ param: { spaceId }, query: { from, to } })),
);
