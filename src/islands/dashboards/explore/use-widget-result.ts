/**
 * One widget's result, from the one fetcher context (stores/dashboards.ts `widgetResultStore`): asked when its request
 * changes (query with variables written in, range as instants), kept on screen while a newer answer to the same query
 * loads, and remembered by request, so a widget whose request did not change is not asked again.
 */
import { useStore } from '@nanostores/react';
import { atom } from 'nanostores';
import { useMemo, useRef } from 'react';
import type { WidgetQueryBody, WidgetResult } from '../../../../contract/dashboards.ts';
import { retryWidget, widgetResultStore, widgetRetrying } from '../../../stores/dashboards.ts';

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

// What a widget without a request subscribes to: nothing, loading.
const NOTHING = atom<{ data?: WidgetResult; error?: unknown; loading: boolean }>({ loading: true });

export function useWidgetResult(
  spaceId: string,
  request: WidgetQueryBody | null,
): { state: WidgetState; retry: () => void } {
  const key = request ? JSON.stringify(request) : null;
  const query = request ? JSON.stringify(request.query) : '';
  const store = useMemo(() => (key ? widgetResultStore(spaceId, key) : null), [spaceId, key]);
  const value = useStore(store ?? NOTHING);
  // The last answer shown: the same query over a moved range keeps it on screen while it refreshes; another does not.
  const shown = useRef<{ result: WidgetResult; query: string } | null>(null);

  let state: WidgetState;
  if (value.data !== undefined) {
    shown.current = { result: value.data, query };
    state = { status: 'ready', result: value.data, refreshing: value.loading, query };
  } else if (value.error !== undefined && !(key && widgetRetrying(spaceId, key, value.error))) {
    state = { status: 'error', error: value.error };
  } else if (shown.current && shown.current.query === query) {
    state = { status: 'ready', result: shown.current.result, refreshing: true, query };
  } else state = { status: 'loading' };

  const retry = (): void => {
    if (key && store) retryWidget(spaceId, key, store);
  };
  return { state, retry };
}
