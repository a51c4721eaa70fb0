/**
 * The route of this page's URL: the one way islands read `space_id`, `id`, `waf_id` and `token`.
 * Every dynamic route shares one pre-rendered shell, so the values are known only after hydration.
 */
import { atom, computed, onMount } from 'nanostores';
import { matchPath } from '../lib/route-patterns.ts';

export interface CurrentRoute {
  /** The route table's pattern, e.g. `/console/siem/{space_id}`; null for a path outside the table. */
  readonly pattern: string | null;
  readonly params: Readonly<Record<string, string>>;
}

/** undefined until the URL has been read (the pre-rendered HTML and the first client render). */
export const $route = atom<CurrentRoute | undefined>(undefined);

/** Reads the route from the address bar; runs when the first island subscribes, and after a URL change. */
export function readRoute(pathname: string = location.pathname): void {
  const match = matchPath(pathname);
  $route.set({ pattern: match?.pattern ?? null, params: match?.params ?? {} });
}

onMount($route, () => {
  // Pre-rendering (islands' server render at build time) has no address bar: the route stays unknown there.
  if (typeof location !== 'undefined') readRoute();
});

/** The space of the URL: undefined before hydration, null when the URL names none. */
export const $spaceId = computed($route, (route) =>
  route === undefined ? undefined : (route.params.space_id ?? null),
);

/** The `{id}` segment of the URL (a source, an alert, a firewall…), same states as `$spaceId`. */
export const $routeId = computed($route, (route) => (route === undefined ? undefined : (route.params.id ?? null)));

/** The `{waf_id}` segment of the URL (the firewall of a WAF alert), same states as `$spaceId`. */
export const $routeWafId = computed($route, (route) =>
  route === undefined ? undefined : (route.params.waf_id ?? null),
);
