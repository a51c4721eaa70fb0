/**
 * The one inline script of every page, run before first paint: applies the colour mode,
 * fills the 404 path, reloads after a failed chunk, polls for new builds and prefetches
 * links. Bundled by the build into an IIFE; must stay under 3 KB gzip.
 */
import { isBot } from '../bots.ts';
import { BUILD_POLL_MS, isNewBuildAvailable } from '../build-check.ts';
import {
  applyTheme,
  COLOR_MODE_KEY,
  DARK_QUERY,
  parseColorMode,
  parseForcedMode,
  resolveTheme,
} from '../color-mode.ts';
import { fullPathOf, showErrorPage } from '../error-page.ts';
import { createPrefetchQueue, isSlowConnection, prefetchTarget } from '../prefetch.ts';
import { claimReload, isChunkLoadError } from '../reload-guard.ts';

declare const __SG_BUILD_ID__: string;

const root = document.documentElement;
const dark = matchMedia(DARK_QUERY);

// Colour mode: a page-forced mode wins, else the saved preference, "system" following the OS live.
const paint = (): void => {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(COLOR_MODE_KEY);
  } catch {
    // Storage blocked: the default preference applies.
  }
  const preference = parseColorMode(saved);
  const forced = parseForcedMode(root.dataset.forcedMode);
  applyTheme(root, resolveTheme(preference, forced, dark.matches), preference, forced);
};
paint();
dark.addEventListener('change', paint);
addEventListener('storage', (event) => {
  if (event.key === COLOR_MODE_KEY) paint();
});

// Error page: the path actually requested, query and hash included.
const fillPath = (): void => {
  for (const slot of document.querySelectorAll('[data-sg-path]')) slot.textContent = fullPathOf(location);
};

// A chunk that failed to load means a newer deploy removed it: reload, at most once per 10 s per path.
const reloadAfter = (error: unknown): boolean => {
  if (!isChunkLoadError(error)) return false;
  let allowed = false;
  try {
    allowed = claimReload(sessionStorage, location.pathname, Date.now());
  } catch {
    allowed = false;
  }
  if (allowed) location.reload();
  else console.error('Spaceguard: a script failed to load again within 10 s; not reloading.', error);
  return true;
};
addEventListener('vite:preloadError', (event) => {
  if (reloadAfter((event as Event & { payload?: unknown }).payload ?? 'Failed to fetch dynamically imported module'))
    event.preventDefault();
});
addEventListener('unhandledrejection', (event) => {
  if (reloadAfter(event.reason)) event.preventDefault();
});
addEventListener('astro:hydration-error', (event) => {
  const error = (event as CustomEvent<{ error: unknown }>).detail.error;
  if (reloadAfter(error)) return;
  event.preventDefault();
  console.error('Error while mounting app', error);
  if (!isBot(navigator.userAgent)) showErrorPage(document, 500, error instanceof Error ? error.message : String(error));
});

// New-build check: offer a reload when another complete build is live.
const offerReload = (): void => {
  if (document.getElementById('sg-new-build')) return;
  const bar = document.createElement('div');
  bar.id = 'sg-new-build';
  bar.setAttribute('role', 'status');
  bar.className = 'sg-new-build';
  bar.textContent = 'A new version of Spaceguard is available. ';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Reload';
  button.addEventListener('click', () => location.reload());
  bar.append(button);
  document.body.append(bar);
};
setInterval(() => {
  void isNewBuildAvailable(__SG_BUILD_ID__, fetch).then((fresh) => fresh && offerReload());
}, BUILD_POLL_MS);

// Prefetch: links seen or pointed at, 4 at a time, never on slow connections.
const startPrefetch = (): void => {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } })
    .connection;
  if (isSlowConnection(connection)) return;
  const queue = createPrefetchQueue(
    (url) =>
      new Promise((resolve) => {
        const link = document.createElement('link');
        link.rel = 'prefetch';
        link.href = url;
        link.onload = link.onerror = resolve;
        document.head.append(link);
      }),
  );
  const consider = (target: EventTarget | null): void => {
    const anchor = target instanceof Element ? target.closest('a[href]') : null;
    const url = anchor instanceof HTMLAnchorElement ? prefetchTarget(anchor, location) : null;
    if (url) queue.add(url);
  };
  const seen = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      seen.unobserve(entry.target);
      consider(entry.target);
    }
  });
  const watch = (scope: ParentNode): void => {
    for (const anchor of scope.querySelectorAll('a[href]')) seen.observe(anchor);
  };
  watch(document);
  // Islands render links after hydration (the console rail): watch those too.
  new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) if (node instanceof Element) watch(node.parentNode ?? node);
  }).observe(document.body, { childList: true, subtree: true });
  document.addEventListener('pointerover', (event) => consider(event.target), { passive: true });
  document.addEventListener('focusin', (event) => consider(event.target));
};

document.addEventListener('DOMContentLoaded', () => {
  fillPath();
  (window.requestIdleCallback ?? setTimeout)(startPrefetch);
});
