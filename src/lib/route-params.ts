/** Route parameters of the current URL, read by islands since every dynamic route shares one shell. */
import { matchRoute } from './routes.ts';

/** Parameters (`space_id`, `id`, `waf_id`, `token`) of a path, empty when it matches no dynamic route. */
export function paramsOf(pathname: string): Record<string, string> {
  return matchRoute(pathname)?.params ?? {};
}
