import { useEffect } from 'react';

/** Ingest figures refresh on their own this often while the page is visible. */
const REFRESH_MS = 30_000;

/** Calls `reload` every 30 s while the tab is visible, so a source's figures stay current without a click. */
export function useVisibleRefresh(reload: () => void): void {
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') reload();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
}
