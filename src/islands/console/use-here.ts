import { $route } from '../../stores/route.ts';
import { useHydratedStore } from '../app/use-hydrated-store.ts';

/** Where in the console this page is: its space and route pattern. */
export interface Here {
  readonly spaceId: string;
  readonly pattern: string;
  /** The page's `view` parameter, where one route shows two areas of the rail (the event log and its log sources). */
  readonly view: string | null;
}

/**
 * The space and route pattern of the URL, for the console's rail and switcher; null before hydration (the shell is
 * shared by every space, so the pre-rendered HTML knows neither) and outside a space.
 */
export function useHere(): Here | null {
  const route = useHydratedStore($route, undefined);
  const spaceId = route?.params.space_id;
  if (!route || !spaceId) return null;
  return { spaceId, pattern: route.pattern ?? '', view: new URLSearchParams(location.search).get('view') };
}
