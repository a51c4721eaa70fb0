/**
 * Remote data for every island through one @nanostores/query context: a store per API resource, fetched once
 * its key is known, shared by every island that names the same key (one request per resource and page load),
 * refreshed when the tab becomes visible again or the network comes back.
 */
import { type FetcherStore, nanoquery, onErrorRetry } from '@nanostores/query';
import type { ReadableAtom } from 'nanostores';
import { ApiError } from '../lib/api.ts';

const cache = new Map();

// Client errors (signed out, not a member, bad input) do not get better by asking again; the rest are retried.
function retryDelay({ error, retryCount }: { error: unknown; retryCount: number }): number | null {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) return null;
  return retryCount <= 3 ? onErrorRetry({ retryCount }) : null;
}

export const [createFetcherStore, createMutatorStore, { invalidateKeys, revalidateKeys, mutateCache }] = nanoquery({
  cache,
  dedupeTime: 4_000,
  revalidateOnFocus: true,
  revalidateOnReconnect: true,
  onErrorRetry: retryDelay,
});

/** A key part: a fixed value, or a store whose value (null or undefined: not known yet) completes the key. */
export type KeyPart = string | ReadableAtom<string | null | undefined>;

/** How a store refreshes beyond the defaults: `revalidateInterval` (ms) asks again that often while the tab is visible. */
export interface ApiStoreSettings {
  readonly revalidateInterval?: number;
}

/**
 * A store of one API resource named `name`, keyed by `parts`: `load` is called with each part's value once all
 * are known, and again when one changes. `invalidateApi(name)` refetches every store of that name.
 */
export function apiStore<T>(
  name: string,
  parts: readonly KeyPart[],
  load: (...values: string[]) => Promise<T>,
  settings: ApiStoreSettings = {},
): FetcherStore<T, unknown> {
  const key = [`${name}|`, ...parts.flatMap((part, index) => (index === 0 ? [part] : ['|', part]))];
  return createFetcherStore<T>(key, {
    ...settings,
    // Pre-rendering (no window) asks for nothing: the island's server HTML shows its loading state, as in the browser.
    fetcher: (...values) =>
      typeof window === 'undefined'
        ? new Promise<T>(() => undefined)
        : load(...values.filter((_, index) => index % 2 === 1).map(String)),
  });
}

/**
 * Refetches every store of these names (after a change the screen made), wherever it is shown. What they show stays
 * until the answer replaces it (nanoquery's revalidate; its invalidate would drop it and blank the screen meanwhile).
 */
export function invalidateApi(...names: string[]): void {
  revalidateKeys((key) => names.some((name) => key.startsWith(`${name}|`)));
}

/** Forgets every cached answer; for tests, which reuse the module between cases. */
export function clearApiCacheForTests(): void {
  cache.clear();
}
