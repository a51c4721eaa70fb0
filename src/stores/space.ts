/** The space the user works in: its id from the URL, the space itself from the API, and the last one used. */
import { call, client } from '../lib/api.ts';
import { $config, ensureConfig } from '../lib/config.ts';
import { createKeyValueStore } from '../lib/persistence.ts';
import { apiStore } from './fetcher.ts';
import { $spaceId } from './route.ts';

/** Key of the last used space in the configured persistence storage. */
export const LAST_SPACE_KEY = 'spaceguard:last-space';

function store() {
  const { storage, cookie } = $config.get().persistence;
  return createKeyValueStore(storage, cookie);
}

/** The last space the user opened, from the configured storage. */
export function readLastSpaceId(): string | null {
  return store().get(LAST_SPACE_KEY);
}

/** Remembers a space the user opened, in the storage the runtime config names (for /auth/landing). */
export function rememberSpace(spaceId: string): void {
  void ensureConfig().then(() => store().set(LAST_SPACE_KEY, spaceId));
}

/** The space of the URL, with the caller's role in it. */
export const $space = apiStore('space', [$spaceId], (spaceId) =>
  call(client.spaces[':spaceId'].$get({ param: { spaceId } })),
);

/** The signed-in user's spaces, as the /spaces cards and the space switcher show them. */
export const $spaces = apiStore('spaces', [], () => call(client.spaces.$get()));

/** Creates a space the user owns (the screen then opens it, so nothing here is refreshed). */
export function createSpace(name: string) {
  return call(client.spaces.$post({ json: { name } }));
}
