/**
 * The overview's own reads: the summary strip over the overview's window and the period before it, keyed by the
 * same search as its charts (`$overviewSearch`), so a new range is a new key; and its open alerts and open findings
 * cards. They live here, not in the alerts and findings stores, so the overview does not load those areas' code.
 */
import { computed } from 'nanostores';
import type { AlertList } from '../../contract/alerts.ts';
import type { FindingList } from '../../contract/findings.ts';
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

/** The space's newest open alerts (five) and its open alerts by severity; asked again while the tab is visible. */
export const $openAlerts = apiStore<AlertList>(
  'open-alerts',
  [$spaceId],
  (spaceId) =>
    call(client.spaces[':spaceId'].alerts.$get({ param: { spaceId }, query: { status: 'open', limit: '5' } })),
  { revalidateInterval: 30_000 },
);

/**
 * The open findings by severity and the five newest of them. Named `findings` like the findings list, so every
 * write that refreshes the findings (`invalidateApi($findings)`) refreshes this card too.
 */
export const $openFindings = apiStore<FindingList>('findings', [$spaceId, 'status=open&limit=5'], (spaceId) =>
  call(client.spaces[':spaceId'].findings.$get({ param: { spaceId }, query: { status: 'open', limit: '5' } })),
);
