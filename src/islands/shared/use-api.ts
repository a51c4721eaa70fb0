/** Reads an API store (stores/fetcher.ts) as a screen shows it: loading, ready (old data kept while it refreshes) or error with retry. */
import type { FetcherStore } from '@nanostores/query';
import { useStore } from '@nanostores/react';

export type Loaded<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly data: T; readonly refreshing: boolean }
  | { readonly state: 'error'; readonly error: unknown };

/** What a pre-rendered island showed: loading (stores/fetcher.ts asks for nothing while pre-rendering). */
const PRERENDERED = { loading: true } as const;
const prerendered = () => PRERENDERED;

/**
 * The store's value as one of three states, and `retry()` to ask again (after a failure, or to refresh). Hydrating,
 * the first render is the pre-rendered loading state even when another island has already loaded the same store, so
 * the HTML matches (no React hydration mismatch); the data shows in the render right after.
 */
export function useApi<T>(store: FetcherStore<T, unknown>): { loaded: Loaded<T>; retry: () => void } {
  const value: { data?: T; error?: unknown; loading: boolean } = useStore(store, { ssr: prerendered });
  const retry = (): void => store.invalidate();
  if (value.error !== undefined && !value.loading) return { loaded: { state: 'error', error: value.error }, retry };
  if (value.data !== undefined)
    return { loaded: { state: 'ready', data: value.data, refreshing: value.loading }, retry };
  return { loaded: { state: 'loading' }, retry };
}

type DataOf<L> = L extends { readonly state: 'ready'; readonly data: infer T } ? T : never;

/** Several loads as one: the first error, else loading until every one is ready, else all their data in order. */
export function all<const L extends readonly Loaded<unknown>[]>(...list: L): Loaded<{ [K in keyof L]: DataOf<L[K]> }> {
  const failed = list.find((loaded) => loaded.state === 'error');
  if (failed) return failed;
  if (list.some((loaded) => loaded.state === 'loading')) return { state: 'loading' };
  const ready = list as unknown as readonly { data: unknown; refreshing: boolean }[];
  return {
    state: 'ready',
    data: ready.map((loaded) => loaded.data) as { [K in keyof L]: DataOf<L[K]> },
    refreshing: ready.some((loaded) => loaded.refreshing),
  };
}
