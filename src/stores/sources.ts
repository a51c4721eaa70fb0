/** The log sources of the URL's space: the list with its ingest figures, and the source of the URL with its errors. */
import { call, client } from '../lib/api.ts';
import { apiStore } from './fetcher.ts';
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
