/** Findings of the URL's space (issue #16): the filtered list, the trend, one finding, the firewalls a patch may use. */
import { atom } from 'nanostores';
import type { FindingDetail, FindingList, FindingTrend } from '../../contract/findings.ts';
import { call, client } from '../lib/api.ts';
import { apiStore } from './fetcher.ts';
import { $spaceId } from './route.ts';

const space = client.spaces[':spaceId'];

/** The list's request query (`status=open&severity=high…`), set by the findings tab from its URL. */
export const $findingListQuery = atom<string | undefined>(undefined);

/** One page of findings for a list query (the `cursor` of the page before, or null for the first). */
export function loadFindings(spaceId: string, query: string, cursor: string | null): Promise<FindingList> {
  const params: Record<string, string> = Object.fromEntries(new URLSearchParams(query));
  if (cursor) params.cursor = cursor;
  return call(space.findings.$get({ param: { spaceId }, query: params }));
}

/** The first page of the filtered findings with the counts by status and severity. */
export const $findings = apiStore<FindingList>('findings', [$spaceId, $findingListQuery], (spaceId, query) =>
  loadFindings(spaceId, query, null),
);

/** Open findings by severity after each assessment. */
export const $findingTrend = apiStore<FindingTrend>('finding-trend', [$spaceId], (spaceId) =>
  call(space.findings.trend.$get({ param: { spaceId } })),
);

/** The finding whose panel is open. */
export const $findingId = atom<string | null>(null);

/** The open finding with its timeline and patches. */
export const $finding = apiStore<FindingDetail>('finding', [$spaceId, $findingId], (spaceId, id) =>
  call(space.findings[':id'].$get({ param: { spaceId, id } })),
);

/** The open findings by severity and the five newest of them (the overview's card). */
export const $openFindings = apiStore<FindingList>('findings', [$spaceId, 'status=open&limit=5'], (spaceId, query) =>
  loadFindings(spaceId, query, null),
);
