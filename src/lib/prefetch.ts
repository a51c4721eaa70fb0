/** Prefetch of linked pages: at most 4 at a time, never on data saver or 2g connections. */

/** The seed's limit of concurrent preloads. */
export const PREFETCH_CONCURRENCY = 4;

interface NetworkInformationLike {
  readonly saveData?: boolean;
  readonly effectiveType?: string;
}

/** True when the connection is slow or the user asked to save data. */
export function isSlowConnection(connection: NetworkInformationLike | undefined): boolean {
  if (!connection) return false;
  return connection.saveData === true || /(^|-)2g$/.test(connection.effectiveType ?? '');
}

/** A queue that runs at most `limit` loads at once, each URL once. */
export function createPrefetchQueue(load: (url: string) => Promise<unknown>, limit: number = PREFETCH_CONCURRENCY) {
  const seen = new Set<string>();
  const waiting: string[] = [];
  let running = 0;
  const pump = (): void => {
    while (running < limit && waiting.length > 0) {
      const url = waiting.shift() as string;
      running += 1;
      load(url)
        .catch(() => undefined)
        .finally(() => {
          running -= 1;
          pump();
        });
    }
  };
  return {
    add(url: string): void {
      if (seen.has(url)) return;
      seen.add(url);
      waiting.push(url);
      pump();
    },
    get running(): number {
      return running;
    },
  };
}

/** The same-origin page URL a link should prefetch, or null for anything else. */
export function prefetchTarget(anchor: HTMLAnchorElement, here: Location): string | null {
  if (anchor.origin !== here.origin || anchor.hasAttribute('download') || anchor.target === '_blank') return null;
  if (anchor.dataset.noPrefetch !== undefined) return null;
  const url = anchor.pathname + anchor.search;
  if (anchor.pathname === here.pathname && anchor.search === here.search) return null;
  if (/\.[a-z0-9]+$/i.test(anchor.pathname) && !anchor.pathname.endsWith('.html')) return null;
  return url;
}
