import { useStore } from '@nanostores/react';
import type { ReadableAtom } from 'nanostores';
import { useEffect, useState } from 'react';

/** Reads a store but returns `initial` for the first render, so client and pre-rendered HTML agree. */
export function useHydratedStore<T>(store: ReadableAtom<T>, initial: T): T {
  const value = useStore(store);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated ? value : initial;
}
