/**
 * View state kept in the URL (filters, tab, the open record), so a link opens it and a reload keeps it. The one
 * module that writes the browser's history: screens change their view through useUrlView, or drop a parameter
 * they have used through replaceUrl.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

/** Rewrites the address bar in place (no new history entry, or one with `push`): `edit` changes the current URL. */
export function replaceUrl(edit: (url: URL) => void, { push = false }: { readonly push?: boolean } = {}): void {
  const url = new URL(location.href);
  edit(url);
  if (url.href === location.href && !push) return;
  if (push) history.pushState(history.state, '', url);
  else history.replaceState(history.state, '', url);
}

interface Options<V> {
  /** Called with each view read from the URL: once hydrated, and on Back or Forward when `popstate` is set. */
  readonly onRead?: (view: V) => void;
  /** Back and Forward read the view again (for views changed with `push`). */
  readonly popstate?: boolean;
}

/**
 * The view read from the URL's query string once hydrated (null before: the pre-rendered shell has no URL), and
 * `change(next)` to show another view and write it to the URL. `write` gives the query string of a view; it also
 * gets the current one, for parameters the view keeps without owning them.
 */
export function useUrlView<V>(
  read: (search: string) => V,
  write: (view: V, current: URLSearchParams) => string,
  options: Options<V> = {},
): readonly [view: V | null, change: (next: V, how?: { readonly push?: boolean }) => void] {
  const [view, setView] = useState<V | null>(null);
  // The functions may be new on each render; the URL is read once, and written with the latest.
  const latest = useRef({ read, write, options });
  latest.current = { read, write, options };

  useEffect(() => {
    const show = (): void => {
      const next = latest.current.read(location.search);
      setView(next);
      latest.current.options.onRead?.(next);
    };
    show();
    if (!latest.current.options.popstate) return;
    addEventListener('popstate', show);
    return () => removeEventListener('popstate', show);
  }, []);

  const change = useCallback((next: V, how: { readonly push?: boolean } = {}) => {
    replaceUrl((url) => {
      url.search = latest.current.write(next, new URLSearchParams(url.search));
    }, how);
    setView(next);
  }, []);

  return [view, change] as const;
}
