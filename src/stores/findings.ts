/** Findings of the URL's space: the filtered list, the trend, one finding, the firewalls a patch may use. */
import { atom } from 'nanostores';
import type {
  BulkFindingBody,
  FindingDetail,
  FindingList,
  FindingTrend,
  UpdateFindingBody,
  VirtualPatchBody,
} from '../../contract/findings.ts';
import { call, client } from '../lib/api.ts';
import { $asset, $assets } from './assets.ts';
import { apiStore, invalidateApi } from './fetcher.ts';
import { $firewalls } from './firewalls.ts';
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

// Writes: each sends one change and refreshes what it changes, wherever it is shown.

/** Assesses one asset (or all) now; the findings, their trend and the assets refresh. */
export async function assessNow(spaceId: string, assetId?: string) {
  const answer = await call(space.assessments.$post({ param: { spaceId }, json: assetId ? { assetId } : {} }));
  invalidateApi($findings, $findingTrend, $assets, $asset);
  return answer;
}

/** Triages one finding; it and the list refresh. */
export async function triageFinding(spaceId: string, id: string, change: UpdateFindingBody) {
  const answer = await call(space.findings[':id'].$patch({ param: { spaceId, id }, json: change }));
  invalidateApi($finding, $findings);
  return answer;
}

/** Triages several findings at once; the list refreshes. */
export async function triageFindings(spaceId: string, body: BulkFindingBody) {
  const answer = await call(space.findings.bulk.$post({ param: { spaceId }, json: body }));
  invalidateApi($findings);
  return answer;
}

const virtualPatch = space.findings[':id']['virtual-patch'];

/** What a virtual patch for a finding would add to its firewall (changes nothing). */
export function previewVirtualPatch(spaceId: string, id: string, body: VirtualPatchBody) {
  return call(virtualPatch.preview.$post({ param: { spaceId, id }, json: body }));
}

/** Applies a virtual patch as a new firewall version; the finding, the list and the firewalls refresh. */
export async function applyVirtualPatch(spaceId: string, id: string, body: VirtualPatchBody) {
  const answer = await call(virtualPatch.$post({ param: { spaceId, id }, json: body }));
  invalidateApi($finding, $findings, $firewalls);
  return answer;
}

/** Removes a finding's virtual patch from its firewall; the finding, the list and the firewalls refresh. */
export async function removeVirtualPatch(spaceId: string, id: string): Promise<void> {
  await call(virtualPatch.$delete({ param: { spaceId, id } }));
  invalidateApi($finding, $findings, $firewalls);
}
