/** The log sources of the URL's space: the list with its ingest figures, and the source of the URL with its errors. */
import type { CreateSourceBody, UpdateSourceBody } from '../../contract/sources.ts';
import { call, client, hrefOf } from '../lib/api.ts';
import { apiStore, invalidateApi } from './fetcher.ts';
import { $routeId, $spaceId } from './route.ts';

// Ingest figures (events last hour, last event, errors) move on their own: asked again this often while visible.
const FIGURES_REFRESH = { revalidateInterval: 30_000 };

/** The space's sources with their ingest figures, as the event log's panel lists them. */
export const $sources = apiStore(
  'sources',
  [$spaceId],
  (spaceId) => call(client.spaces[':spaceId'].sources.$get({ param: { spaceId } })),
  FIGURES_REFRESH,
);

/** The source of the URL (`{id}`): its figures, token prefix and most recent refused lines. */
export const $source = apiStore(
  'source',
  [$spaceId, $routeId],
  (spaceId, id) => call(client.spaces[':spaceId'].sources[':id'].$get({ param: { spaceId, id } })),
  FIGURES_REFRESH,
);

// Writes: each sends one change and refreshes the sources it changes.

/** Creates a source; its token is in the answer, once. The list refreshes. */
export async function createSource(spaceId: string, body: CreateSourceBody) {
  const created = await call(client.spaces[':spaceId'].sources.$post({ param: { spaceId }, json: body }));
  invalidateApi($sources);
  return created;
}

/** Saves a source's name, kind or retention; the source and the list refresh. The saved source is the answer. */
export async function updateSource(spaceId: string, id: string, body: UpdateSourceBody) {
  const updated = await call(client.spaces[':spaceId'].sources[':id'].$patch({ param: { spaceId, id }, json: body }));
  invalidateApi($source, $sources);
  return updated;
}

/** Gives a source a new token (the old one stops working); the new token is the answer, shown once. */
export async function rotateSourceToken(spaceId: string, id: string): Promise<string> {
  const rotated = await call(client.spaces[':spaceId'].sources[':id'].token.$post({ param: { spaceId, id } }));
  invalidateApi($source, $sources);
  return rotated.token;
}

/** Deletes a source with its events; the list refreshes (the deleted source's own page is left, not asked again). */
export async function deleteSource(spaceId: string, id: string): Promise<void> {
  await call(client.spaces[':spaceId'].sources[':id'].$delete({ param: { spaceId, id } }));
  invalidateApi($sources);
}

/** What each line of a sample becomes with a source's kind, or why it is refused; nothing is stored. */
export function testSourceSample(spaceId: string, id: string, sample: string) {
  return call(client.spaces[':spaceId'].sources[':id'].test.$post({ param: { spaceId, id }, json: { sample } }));
}

/** The ingest address of a source token, under the configured API base (the token already fit for a path). */
export function ingestAddress(sourceToken: string): string {
  return hrefOf(client.ingest[':sourceToken'].$url({ param: { sourceToken } }));
}
