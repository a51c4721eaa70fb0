/**
 * The WAF's reads and writes: discover's answer for the screen's search, through the one fetcher context (a new search
 * is a new key), and the remedies an analyst previews and applies to a firewall.
 */
import { atom, computed } from 'nanostores';
import type { DiscoverGroup, DiscoverScope, DiscoverSort } from '../../contract/constants/waf.ts';
import type { RemedyInput } from '../../contract/waf.ts';
import { call, client } from '../lib/api.ts';
import { apiStore, invalidateApi } from './fetcher.ts';
import { $firewall, $firewalls, $firewallVersions } from './firewalls.ts';
import { $spaceId } from './route.ts';

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

/** The groups of `search` that come after the first `offset` in its order (the first page at 0). */
export function loadDiscoverPage(spaceId: string, search: DiscoverSearch, offset: number) {
  return call(
    client.spaces[':spaceId']['waf-discover'].$get({
      param: { spaceId },
      query: { ...search, offset: String(offset) },
    }),
  );
}

/** The first page of groups of the current search, with the search they answer. */
export const $discover = apiStore(
  'waf-discover',
  [$spaceId, computed($discoverSearch, (search) => (search ? JSON.stringify(search) : undefined))],
  async (spaceId, key) => {
    const search = JSON.parse(key) as DiscoverSearch;
    return { search, answer: await loadDiscoverPage(spaceId, search, 0) };
  },
);

const remedies = client.spaces[':spaceId']['waf-remedies'];

/** What a remedy would change in its firewall: the settings and files before and after (changes nothing). */
export function previewRemedy(spaceId: string, body: RemedyInput) {
  return call(remedies.preview.$post({ param: { spaceId }, json: body }));
}

/** Applies a previewed remedy over the firewall version it was previewed on; the firewalls refresh. */
export async function applyRemedy(spaceId: string, body: RemedyInput, version: number) {
  const applied = await call(remedies.$post({ param: { spaceId }, json: { ...body, version } }));
  invalidateApi($firewalls, $firewall, $firewallVersions);
  return applied;
}
