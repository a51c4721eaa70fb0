/** Full reload after a script chunk failed to load, at most once per 10 000 ms per path. */

/** The seed's reload guard window. */
export const RELOAD_GUARD_MS = 10_000;

const KEY_PREFIX = 'spaceguard:reload:';

/** Messages browsers give when a dynamically imported chunk cannot be fetched or evaluated as a module. */
const CHUNK_FAILURE =
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS|Failed to load module script/i;

/** True when an error means a script chunk failed to load (typically removed by a newer deploy). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return CHUNK_FAILURE.test(message);
}

/**
 * Records a reload for the path and says whether it may happen now: false when the
 * previous reload of the same path is less than 10 000 ms old.
 */
export function claimReload(storage: Pick<Storage, 'getItem' | 'setItem'>, path: string, now: number): boolean {
  const key = KEY_PREFIX + path;
  const last = Number(storage.getItem(key));
  if (Number.isFinite(last) && last > 0 && now - last < RELOAD_GUARD_MS) return false;
  storage.setItem(key, String(now));
  return true;
}
