/** Loads a screen's data with loading, error and retry; a reload keeps the old data on screen until it is replaced. */
import { useCallback, useEffect, useState } from 'react';

export type Loaded<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly data: T }
  | { readonly state: 'error'; readonly error: unknown };

/** Runs `load` (skipped while null) and again on `reload()`; `load` must be memoised by the caller. */
export function useLoad<T>(load: (() => Promise<T>) | null) {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry trigger, on purpose
  useEffect(() => {
    if (!load) return;
    let current = true;
    // A retry after a failure shows the loading state again; a refresh keeps the data.
    setLoaded((before) => (before.state === 'ready' ? before : { state: 'loading' }));
    load().then(
      (data) => {
        if (current) setLoaded({ state: 'ready', data });
      },
      (error: unknown) => {
        if (current) setLoaded({ state: 'error', error });
      },
    );
    return () => {
      current = false;
    };
  }, [load, attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { loaded, reload };
}
