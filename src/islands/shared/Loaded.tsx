/** The ladder every screen shows before its content: no space in the URL, loading, could not load (with Retry), ready. */
import type { ReactElement, ReactNode } from 'react';
import { noSpaceError, Problem } from './Problem.tsx';
import type { Loaded as LoadedState } from './use-api.ts';

interface Props<T, V> {
  /**
   * The space the URL names, for screens inside one: undefined while it is read (loading), null when the URL names
   * none (the space's "not found"). Leave it out for a panel that does not depend on it.
   */
  readonly spaceId?: string | null | undefined;
  /**
   * What the screen loads, e.g. `useApi(...).loaded` or several at once through `all(...)`. Left out by a screen that
   * keeps its controls while its results load (it shows their state itself), so only the space and view are waited for.
   */
  readonly loaded?: LoadedState<T> | undefined;
  /** Asks again after a failure. */
  readonly retry: () => void;
  /** What shows while loading: a sentence (a muted status line) or the element itself. */
  readonly loading: string | ReactElement;
  /** What else the screen waits for, its view read from the URL (useUrlView) or a draft: null shows the loading state. */
  readonly view?: V | null | undefined;
  /** What a 404 means here, and where it sends the user on (see Problem). */
  readonly notFound?: ReactNode | undefined;
  readonly back?: { readonly href: string; readonly label: string } | null | undefined;
  /** What a failure shows instead of the problem alone, for a screen that keeps some of itself (its filters) then. */
  readonly failed?: ((error: unknown, view: V | null) => ReactNode) | undefined;
  /** The screen itself, given the loaded data, the view once read and the space the URL names ('' when not given). */
  readonly children: (data: T, view: V, spaceId: string) => ReactNode;
}

/** Shows the no-space problem, the loading line, the error with Retry, or the screen once its data is ready. */
export function Loaded<T, V = undefined>(props: Props<T, V>): ReactNode {
  const { spaceId, loaded, retry, loading, view, notFound, back, failed, children } = props;
  // A prop left out is not waited for; one given as undefined (or a null view) is not there yet.
  const pending = ('spaceId' in props && spaceId === undefined) || ('view' in props && view == null);
  if (spaceId === null) return <Problem error={noSpaceError()} onRetry={retry} />;
  const state: LoadedState<T | undefined> = loaded ?? { state: 'ready', data: undefined, refreshing: false };
  if (state.state === 'error' && failed) return failed(state.error, view ?? null);
  if (state.state === 'error') return <Problem error={state.error} onRetry={retry} notFound={notFound} back={back} />;
  if (state.state === 'loading' || pending) {
    return typeof loading === 'string' ? (
      <p className="muted" role="status">
        {loading}
      </p>
    ) : (
      loading
    );
  }
  return children(state.data as T, view as V, spaceId ?? '');
}
