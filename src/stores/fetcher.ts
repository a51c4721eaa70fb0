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

/**
 * How a store refreshes beyond the defaults: `revalidateInterval` (ms) asks again that often while the tab is visible;
 * `dedupeTime` (ms) is how long an answer is fresh (Infinity: asked again only when invalidated); `revalidateOnFocus`
 * and `revalidateOnReconnect` turn those refreshes off; `onErrorRetry` says when a failure is asked again (ms, or null).
 */
export interface ApiStoreSettings {
  readonly revalidateInterval?: number;
  readonly dedupeTime?: number;
  readonly revalidateOnFocus?: boolean;
  readonly revalidateOnReconnect?: boolean;
  readonly onErrorRetry?: (failure: { error: unknown; retryCount: number }) => number | null;
}

/** Where a resource's name is kept on its store: invalidation reads it, nothing else does. */
const RESOURCE: unique symbol = Symbol('api resource');

/**
 * What `invalidateApi` takes: a store made by `apiStore` (or a family key from `apiResource`), never a bare name,
 * so a misspelt resource fails the type-check instead of refreshing nothing.
 */
export interface ApiResource {
  readonly [RESOURCE]: string;
}

/** A store of one API resource, that names the resource to `invalidateApi`. */
export type ApiStore<T> = FetcherStore<T, unknown> & ApiResource;

/**
 * The key of a family of stores that share one resource name (a store per filter or per version, made on demand):
 * `invalidateApi` refetches all of them.
 */
export function apiResource(name: string): ApiResource {
  return { [RESOURCE]: name };
}

/**
 * A store of one API resource named `name` (or a family's `apiResource` key), keyed by `parts`: `load` is called with
 * each part's value once all are known, and again when one changes. `invalidateApi(store)` refetches every store of
 * that name.
 */
export function apiStore<T>(
  name: string | ApiResource,
  parts: readonly KeyPart[],
  load: (...values: string[]) => Promise<T>,
  settings: ApiStoreSettings = {},
): ApiStore<T> {
  const resource = typeof name === 'string' ? name : name[RESOURCE];
  const key = [`${resource}|`, ...parts.flatMap((part, index) => (index === 0 ? [part] : ['|', part]))];
  const store = createFetcherStore<T>(key, {
    ...settings,
    // Pre-rendering (no window) asks for nothing: the island's server HTML shows its loading state, as in the browser.
    fetcher: (...values) =>
      typeof window === 'undefined'
        ? new Promise<T>(() => undefined)
        : load(...values.filter((_, index) => index % 2 === 1).map(String)),
  });
  return Object.assign(store, { [RESOURCE]: resource });
}

/**
 * Refetches every store of these resources (after a change the screen made), wherever it is shown: each names its
 * store, and every store of the same resource name (another filter, another page) is refreshed with it. What they
 * show stays until the answer replaces it (nanoquery's revalidate; its invalidate would drop it and blank the screen
 * meanwhile).
 */
export function invalidateApi(...resources: readonly ApiResource[]): void {
  const names = resources.map((resource) => resource[RESOURCE]);
  revalidateKeys((key) => names.some((name) => key.startsWith(`${name}|`)));
}

/** Forgets every cached answer; for tests, which reuse the module between cases. */
export function clearApiCacheForTests(): void {
  cache.clear();
}
