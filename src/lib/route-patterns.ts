/**
 * The route table's paths alone, in its order, and how an address is matched against them. The browser needs no
 * more than this to know which route it is on; the table's titles, descriptions and layouts (src/lib/routes.ts) are
 * for the build, so islands do not carry them. The build checks that both lists agree.
 */
export const ROUTE_PATTERNS = [
  '/error',
  '/',
  '/spaces',
  '/profile',
  '/auth/login',
  '/auth/forgot',
  '/auth/landing',
  '/auth/register',
  '/auth/reset/{token}',
  '/auth/activation/{token}',
  '/console/{space_id}',
  '/console/siem/{space_id}',
  '/console/siem/manage/{space_id}/{id}',
  '/console/alert/{space_id}',
  '/console/alert/{space_id}/{id}',
  '/console/firewall/{space_id}',
  '/console/firewall/config/{space_id}/{id}',
  '/console/dashboard/{space_id}',
  '/console/dashboard/explore/{space_id}/{id}',
  '/console/subscription/{space_id}',
  '/console/subscription/upgrade/{space_id}',
  '/console/subscription/payment-history/{space_id}',
  '/console/management/member/{space_id}',
  '/console/management/general/{space_id}',
  '/console/management/activity/{space_id}',
  '/console/alerts/waf/discover/{space_id}',
  '/console/alerts/waf/{space_id}/{waf_id}/{id}',
  '/console/vulnerabilities/refs/{space_id}',
  '/console/vulnerabilities/assessment/{space_id}',
] as const;

export type RoutePattern = (typeof ROUTE_PATTERNS)[number];

const PARAM = /^\{([a-z_]+)\}$/;

/** Matches a concrete path against one pattern; returns its parameters or null. */
export function matchPattern(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const got = pathname.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of want.entries()) {
    const actual = got[index] ?? '';
    const name = PARAM.exec(segment)?.[1];
    if (name !== undefined) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(actual);
      } catch {
        return null;
      }
      if (decoded === '') return null;
      params[name] = decoded;
    } else if (segment !== actual) {
      return null;
    }
  }
  return params;
}

/** The first pattern of the table a concrete path matches, with its parameters; null for a path outside it. */
export function matchPath(pathname: string): { pattern: RoutePattern; params: Record<string, string> } | null {
  for (const pattern of ROUTE_PATTERNS) {
    const params = matchPattern(pattern, pathname);
    if (params) return { pattern, params };
  }
  return null;
}
