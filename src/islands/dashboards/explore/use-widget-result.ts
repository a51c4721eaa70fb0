/**
 * One widget's result: asked when its request changes (query with variables written in, range as instants), kept
 * while a newer one loads, and remembered by request, so a widget whose request did not change (an absolute range on
 * refresh, a chart type switch, edit mode) is not asked again. A superseded request is cancelled.
 */
import { atom } from 'nanostores';
import { useEffect, useRef, useState } from 'react';
import type { WidgetQueryBody, WidgetResult } from '../../../../contract/dashboards.ts';
import { ApiError } from '../../../lib/api.ts';
import { queryWidget } from '../../../stores/dashboards.ts';

export type WidgetState =
  | { readonly status: 'loading' }
  | {
      readonly status: 'ready';
      readonly result: WidgetResult;
      readonly refreshing: boolean;
      /** The query (without its range) the result answers: a result of another query is never shown. */
      readonly query: string;
    }
  | { readonly status: 'error'; readonly error: unknown };

/** Widget requests in flight on this page: auto refresh waits for zero, so rounds never stack. */
export const $pendingWidgets = atom(0);

const CACHE_SIZE = 200;
const cache = new Map<string, WidgetResult>();

function remember(key: string, result: WidgetResult): void {
  cache.delete(key);
  cache.set(key, result);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
}

/** Forgets remembered results (tests, and "Refresh now" on an absolute range). */
export function forgetWidgetResults(): void {
  cache.clear();
}

export function useWidgetResult(
  spaceId: string,
  request: WidgetQueryBody | null,
): { state: WidgetState; retry: () => void } {
  const key = request ? JSON.stringify(request) : null;
  const query = request ? JSON.stringify(request.query) : '';
  const [attempt, setAttempt] = useState(0);
  // A busy search lane (503 with Retry-After) is asked again by itself, a few times, before the widget says so.
  const busyRetries = useRef(0);
  const [state, setState] = useState<WidgetState>(() => {
    const known = key ? cache.get(key) : undefined;
    return known ? { status: 'ready', result: known, refreshing: false, query } : { status: 'loading' };
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the request; attempt asks again.
  useEffect(() => {
    if (!key || !request) return;
    const known = cache.get(key);
    if (known) {
      setState({ status: 'ready', result: known, refreshing: false, query });
      return;
    }
    const controller = new AbortController();
    let settled = false;
    let waiting: ReturnType<typeof setTimeout> | undefined;
    $pendingWidgets.set($pendingWidgets.get() + 1);
    const settle = () => {
      if (!settled) $pendingWidgets.set($pendingWidgets.get() - 1);
      settled = true;
    };
    // The same query over a moved range keeps its old answer on screen while it refreshes; another query does not.
    setState((old) =>
      old.status === 'ready' && old.query === query ? { ...old, refreshing: true } : { status: 'loading' },
    );
    queryWidget(spaceId, request, controller.signal).then(
      (result) => {
        settle();
        busyRetries.current = 0;
        remember(key, result);
        if (!controller.signal.aborted) setState({ status: 'ready', result, refreshing: false, query });
      },
      (error: unknown) => {
        settle();
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 503 && busyRetries.current < 3) {
          busyRetries.current += 1;
          waiting = setTimeout(() => setAttempt((n) => n + 1), (error.retryAfter ?? 2) * 1000);
          return;
        }
        busyRetries.current = 0;
        setState({ status: 'error', error });
      },
    );
    return () => {
      controller.abort();
      clearTimeout(waiting);
      settle();
    };
  }, [spaceId, key, attempt]);

  const retry = (): void => {
    if (key) cache.delete(key);
    setAttempt((n) => n + 1);
  };
  return { state, retry };
}
