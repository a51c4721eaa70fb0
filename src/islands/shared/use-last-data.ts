/** Keeps what a screen showed while a new search (a new store key) loads, so the page does not blank between searches. */
import { useState } from 'react';
import type { Loaded } from './use-api.ts';

/**
 * The data of the last ready state of `loaded` (the current one when ready), or undefined before any. The data
 * must keep its identity between renders (a store's value from `useApi`, not a value built in render like `all()`'s).
 */
export function useLastData<T>(loaded: Loaded<T>): T | undefined {
  const [last, setLast] = useState<T | undefined>(undefined);
  const data = loaded.state === 'ready' ? loaded.data : last;
  // Derived from the previous render (React's "storing information from previous renders"): no effect, no extra paint.
  if (data !== last) setLast(data);
  return data;
}
