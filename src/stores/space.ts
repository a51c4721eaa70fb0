/** The space the user works in: read from the URL on console pages, remembered for /auth/landing. */
import { atom } from 'nanostores';
import { createKeyValueStore } from '../lib/persistence.ts';
import { $config } from './config.ts';

/** Key of the last used space in the configured persistence storage. */
export const LAST_SPACE_KEY = 'spaceguard:last-space';

/** The space of the current console page, or null outside the console. */
export const $currentSpaceId = atom<string | null>(null);

function store() {
  const { storage, cookie } = $config.get().persistence;
  return createKeyValueStore(storage, cookie);
}

/** The last space the user opened, from the configured storage. */
export function readLastSpaceId(): string | null {
  return store().get(LAST_SPACE_KEY);
}

// Remember every space the user opens, in the storage the runtime config names.
$currentSpaceId.listen((spaceId) => {
  if (spaceId) store().set(LAST_SPACE_KEY, spaceId);
});
