/** "Load more" lists: the first page from a store, the pages after it asked for by cursor and appended. */
import { useState } from 'react';

/** One page of a list, as the API answers it. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}

interface More<T> {
  readonly key: string;
  /** The first page the later pages follow, when the rows are kept across a refresh of it. */
  readonly first: readonly T[] | null;
  readonly items: readonly T[];
  readonly nextCursor: string | null;
  readonly loading: boolean;
  readonly error: unknown;
}

export interface PagedList<T> {
  /** The first page's rows, then every page loaded after it. */
  readonly items: readonly T[];
  /** Where the next page starts; null at the end. */
  readonly nextCursor: string | null;
  /** A next page is on its way. */
  readonly loading: boolean;
  /** Why the last page asked for did not come (the rows shown stay); null otherwise. */
  readonly error: unknown;
  /** Asks for the next page (again, after a failure). */
  readonly loadMore: () => Promise<void>;
  /** Forgets the pages after the first (after a change that may have moved rows). */
  readonly reset: () => void;
}

export interface PagedListOptions {
  /**
   * Once a later page is loaded, a refreshed first page does not replace the rows: the first page they followed
   * stays with them (so rows scrolled to do not move) until the key changes. Without it, a first page that ends
   * elsewhere (new rows arrived) starts again from itself.
   */
  readonly keepRows?: boolean;
}

/**
 * The list shown for `key` (the query): the `first` page (undefined while it loads) and the pages `fetchPage` loads
 * after it. A new key starts again from the first page.
 */
export function usePagedList<T>(
  key: string,
  first: Page<T> | undefined,
  fetchPage: (cursor: string) => Promise<Page<T>>,
  { keepRows = false }: PagedListOptions = {},
): PagedList<T> {
  const [more, setMore] = useState<More<T> | null>(null);
  // Pages loaded after another query, or (unless rows are kept) after an older first page, do not follow this one.
  const current = keepRows ? key : `${key}\n${first?.nextCursor ?? ''}`;
  const pages = more?.key === current ? more : null;
  const items = pages ? [...(pages.first ?? first?.items ?? []), ...pages.items] : (first?.items ?? []);
  const nextCursor = pages ? pages.nextCursor : (first?.nextCursor ?? null);

  const loadMore = async (): Promise<void> => {
    if (!nextCursor) return;
    const base: More<T> = pages ?? {
      key: current,
      first: keepRows ? (first?.items ?? []) : null,
      items: [],
      nextCursor,
      loading: false,
      error: null,
    };
    setMore({ ...base, loading: true, error: null });
    const same = (now: More<T> | null): now is More<T> => now?.key === current;
    try {
      const page = await fetchPage(nextCursor);
      setMore((now) =>
        same(now) ? { ...now, items: [...now.items, ...page.items], nextCursor: page.nextCursor, loading: false } : now,
      );
    } catch (error) {
      setMore((now) => (same(now) ? { ...now, loading: false, error } : now));
    }
  };

  return {
    items,
    nextCursor,
    loading: pages?.loading ?? false,
    error: pages?.error ?? null,
    loadMore,
    reset: () => setMore(null),
  };
}
