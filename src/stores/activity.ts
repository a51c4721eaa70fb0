/** The URL's space's audit log: the first page as a store per filter set, further pages on demand. */
import { atom } from 'nanostores';
import type { ActivityQuery } from '../../contract/activity.ts';
import type { ExportFormat } from '../../contract/constants/events.ts';
import { call, client, hrefOf } from '../lib/api.ts';
import { apiStore } from './fetcher.ts';
import { $spaceId } from './route.ts';

/** The log's filters as the API reads them (actor, action, objectType, from, to); a missing one means any. */
export type ActivityFilterQuery = Pick<ActivityQuery, 'actor' | 'action' | 'objectType' | 'from' | 'to'>;

/** Records per page. */
export const ACTIVITY_PAGE_SIZE = 50;

/** One page of a space's log under `filters`, newest first; after `cursor` (the previous page's) when given. */
export function loadActivityPage(spaceId: string, filters: ActivityFilterQuery, cursor?: string) {
  return call(
    client.spaces[':spaceId'].activity.$get({
      param: { spaceId },
      query: { ...filters, limit: String(ACTIVITY_PAGE_SIZE), ...(cursor ? { cursor } : {}) },
    }),
  );
}

// A key part that is never known: a store for filters not read yet waits instead of asking for the whole log.
const $notYet = atom<string | undefined>(undefined);

/**
 * The first page under `filters` (null: not read from the URL yet), keyed by them: every store of one filter set
 * shares one request and cache.
 */
export function activityFirstPage(filters: ActivityFilterQuery | null) {
  const set = Object.entries(filters ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined);
  const key = filters === null ? $notYet : new URLSearchParams(set).toString();
  return apiStore('activity', [$spaceId, key], (spaceId) => loadActivityPage(spaceId, filters ?? {}));
}

/** The address that downloads a space's log under `filters` as NDJSON or CSV. */
export function activityExportUrl(spaceId: string, format: ExportFormat, filters: ActivityFilterQuery): string {
  return hrefOf(client.spaces[':spaceId'].activity.export.$url({ param: { spaceId }, query: { format, ...filters } }));
}

/** The actions, object types and actors present in the URL's space's log: the filters' pick lists. */
export const $activityChoices = apiStore('activity-choices', [$spaceId], (spaceId) =>
  call(client.spaces[':spaceId'].activity.choices.$get({ param: { spaceId } })),
);
