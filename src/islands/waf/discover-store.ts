/** WAF discover's answer for the screen's search, through the one fetcher context (a new search is a new key). */
import { atom, computed } from 'nanostores';
import type { DiscoverGroup, DiscoverScope, DiscoverSort } from '../../../contract/constants/waf.ts';
import { call, client } from '../../lib/api.ts';
import { apiStore } from '../../stores/fetcher.ts';
import { $spaceId } from '../../stores/route.ts';

/** One discover search: the query, the absolute window and how to group, order and scope. */
export interface DiscoverSearch {
  readonly q: string;
  readonly from: string;
  readonly to: string;
  readonly groupBy: DiscoverGroup;
  readonly sort: DiscoverSort;
  readonly scope: DiscoverScope;
}

/** The search the screen shows, set from its view; the groups of it, when asked. */
export const $discoverSearch = atom<DiscoverSearch | undefined>(undefined);

/** The groups of the current search, with the search they answer. */
export const $discover = apiStore(
  'waf-discover',
  [$spaceId, computed($discoverSearch, (search) => (search ? JSON.stringify(search) : undefined))],
  async (spaceId, key) => {
    const search = JSON.parse(key) as DiscoverSearch;
    const answer = await call(client.spaces[':spaceId']['waf-discover'].$get({ param: { spaceId }, query: search }));
    return { search, answer };
  },
);
