/** The seed's route table: one entry per pre-rendered shell, the single source for pages, rewrites and the README. */
import { matchPattern, ROUTE_PATTERNS } from './route-patterns.ts';

export { matchPattern };

/** The nine layouts named by the seed. */
export const LAYOUTS = [
  'default',
  'auth',
  'auth-flip',
  'auth-xl',
  'console',
  'console-full',
  'console-list',
  'iconsole',
  'spaces',
] as const;
export type LayoutName = (typeof LAYOUTS)[number];

/** A colour mode a page may force; "system" is deliberately not one of them. */
export type ForcedMode = 'light' | 'dark';

export interface RouteMeta {
  /** The seed's path, with `{param}` for dynamic segments. */
  readonly pattern: string;
  /** Layout named in the route's metadata; `default` when the seed names none. */
  readonly layout?: LayoutName;
  /** Colour mode the page forces, overriding the user's preference. */
  readonly colorMode?: string;
  /** Document title (before " · Spaceguard"). */
  readonly title: string;
  /** One sentence shown under the heading and used as meta description. */
  readonly description: string;
}

/** Every route of the seed, in its order. Layout choices for "not shown" rows are documented in the README. */
export const ROUTES = [
  {
    pattern: '/error',
    title: 'Error',
    description: 'Something went wrong while loading this page.',
  },
  {
    pattern: '/',
    title: 'Web security console',
    description:
      'Spaceguard protects your web applications with a managed firewall, a searchable security event log, alerts and vulnerability assessment, organised in shared spaces.',
  },
  {
    pattern: '/spaces',
    layout: 'spaces',
    title: 'Spaces',
    description: 'Your spaces: pick one to open its console, or create a new one.',
  },
  {
    pattern: '/profile',
    layout: 'spaces',
    title: 'Profile',
    description: 'Your name, email, password, colour mode and active sessions.',
  },
  {
    pattern: '/auth/login',
    layout: 'auth-flip',
    colorMode: 'light',
    title: 'Sign in',
    description: 'Sign in to your Spaceguard account.',
  },
  {
    pattern: '/auth/forgot',
    layout: 'auth-flip',
    colorMode: 'light',
    title: 'Forgot password',
    description: 'Get a link to choose a new password.',
  },
  {
    pattern: '/auth/landing',
    layout: 'auth',
    colorMode: 'light',
    title: 'Signing in',
    description: 'Opening your last used space.',
  },
  {
    pattern: '/auth/register',
    layout: 'auth-xl',
    colorMode: 'light',
    title: 'Create an account',
    description: 'Create a Spaceguard account to protect your applications.',
  },
  {
    pattern: '/auth/reset/{token}',
    layout: 'auth-xl',
    colorMode: 'light',
    title: 'Choose a new password',
    description: 'Choose a new password for your account.',
  },
  {
    pattern: '/auth/activation/{token}',
    layout: 'auth-xl',
    colorMode: 'light',
    title: 'Activate your account',
    description: 'Activate your Spaceguard account.',
  },
  {
    pattern: '/console/{space_id}',
    layout: 'console',
    title: 'Overview',
    description:
      'Requests and blocked requests over time, attacks by category, events by country, top rules and top client IPs.',
  },
  {
    pattern: '/console/siem/{space_id}',
    layout: 'console-list',
    title: 'Security events',
    description: 'Search, filter and export the security events of this space.',
  },
  {
    pattern: '/console/siem/manage/{space_id}/{id}',
    layout: 'iconsole',
    title: 'Log source',
    description: 'One log source: its ingest token, the command to send events, the parser test and recent errors.',
  },
  {
    pattern: '/console/alert/{space_id}',
    layout: 'console-list',
    title: 'Alerts',
    description: 'Open, acknowledged and resolved alerts, and the rules that raise them.',
  },
  {
    pattern: '/console/alert/{space_id}/{id}',
    layout: 'iconsole',
    title: 'Alert',
    description: 'One alert: its timeline, matching events, notes and status.',
  },
  {
    pattern: '/console/firewall/{space_id}',
    layout: 'console-list',
    title: 'Firewalls',
    description: 'The web application firewalls of this space, one per protected application.',
  },
  {
    pattern: '/console/firewall/config/{space_id}/{id}',
    layout: 'iconsole',
    title: 'Firewall settings',
    description: 'Managed rules, exclusions, custom rules, IP lists, country blocking and rate limits of one firewall.',
  },
  {
    pattern: '/console/dashboard/{space_id}',
    layout: 'console-list',
    title: 'Dashboards',
    description: 'The dashboards of this space.',
  },
  {
    pattern: '/console/dashboard/explore/{space_id}/{id}',
    layout: 'console-full',
    title: 'Dashboard',
    description: 'A full-screen dashboard of widgets over the events of this space.',
  },
  {
    pattern: '/console/subscription/{space_id}',
    layout: 'console',
    title: 'Subscription',
    description: 'The current plan, its limits and this period’s usage.',
  },
  {
    pattern: '/console/subscription/upgrade/{space_id}',
    layout: 'console',
    title: 'Change plan',
    description: 'Compare the plans and change the plan of this space.',
  },
  {
    pattern: '/console/subscription/payment-history/{space_id}',
    layout: 'console-list',
    title: 'Payment history',
    description: 'Payments of this space, each with a printable receipt.',
  },
  {
    pattern: '/console/management/member/{space_id}',
    layout: 'console-list',
    title: 'Members',
    description: 'Members and pending invitations of this space, and their roles.',
  },
  {
    pattern: '/console/management/general/{space_id}',
    layout: 'console',
    title: 'General settings',
    description: 'Name, description, time zone and data retention of this space.',
  },
  {
    pattern: '/console/management/activity/{space_id}',
    layout: 'console-list',
    title: 'Activity',
    description: 'The audit log: who did what to which object, and when.',
  },
  {
    pattern: '/console/alerts/waf/discover/{space_id}',
    layout: 'console-list',
    title: 'Discover',
    description: 'Firewall events grouped by client IP, rule, path and country, to spot attacks and false positives.',
  },
  {
    pattern: '/console/alerts/waf/{space_id}/{waf_id}/{id}',
    layout: 'iconsole',
    title: 'Firewall alert',
    description: 'One firewall alert: the triggering requests, the matched rules and one-click remedies.',
  },
  {
    pattern: '/console/vulnerabilities/refs/{space_id}',
    layout: 'console-list',
    title: 'Vulnerability library',
    description: 'Vulnerability records in OSV format: search, filter and import.',
  },
  {
    pattern: '/console/vulnerabilities/assessment/{space_id}',
    layout: 'console-list',
    title: 'Assessment',
    description: 'Assets, their software inventory and the findings of each assessment.',
  },
] as const satisfies readonly RouteMeta[];

export type RoutePattern = (typeof ROUTES)[number]['pattern'];

const PARAM = /^\{([a-z_]+)\}$/;

/** Placeholder segment under which a dynamic route's shell is pre-rendered. */
export const SHELL_SEGMENT = '_';

/**
 * Throws when a route forces "system" or names an unknown layout, or when the table's paths and the browser's list of
 * them (route-patterns.ts) differ: checked when the site is built.
 */
export function validateRoutes(routes: readonly RouteMeta[], patterns: readonly string[] = ROUTE_PATTERNS): void {
  const paths = routes.map((route) => route.pattern);
  if (paths.join('\n') !== patterns.join('\n')) {
    throw new Error(
      `The route table's paths and ROUTE_PATTERNS (src/lib/route-patterns.ts) differ: ${JSON.stringify(paths)} against ${JSON.stringify(patterns)}.`,
    );
  }
  const seen = new Set<string>();
  for (const route of routes) {
    if (seen.has(route.pattern)) throw new Error(`Route ${route.pattern} is listed twice.`);
    seen.add(route.pattern);
    if (route.layout !== undefined && !(LAYOUTS as readonly string[]).includes(route.layout)) {
      throw new Error(`Route ${route.pattern} names an unknown layout "${route.layout}".`);
    }
    if (route.colorMode === 'system') {
      throw new Error(
        `Route ${route.pattern} forces the "system" colour mode; a page may only force "light" or "dark".`,
      );
    }
    if (route.colorMode !== undefined && route.colorMode !== 'light' && route.colorMode !== 'dark') {
      throw new Error(`Route ${route.pattern} forces an unknown colour mode "${route.colorMode}".`);
    }
  }
}

/** The layout a route renders in: its own, or `default`. */
export function layoutOf(route: RouteMeta): LayoutName {
  return route.layout ?? 'default';
}

/** The forced colour mode of a route, if any. */
export function forcedModeOf(route: RouteMeta): ForcedMode | undefined {
  return route.colorMode === 'light' || route.colorMode === 'dark' ? route.colorMode : undefined;
}

/** Names of a pattern's dynamic segments, in order. */
export function paramNames(pattern: string): string[] {
  return pattern
    .split('/')
    .map((segment) => PARAM.exec(segment)?.[1])
    .filter((name): name is string => name !== undefined);
}

/** True when the pattern has at least one dynamic segment. */
export function isDynamic(pattern: string): boolean {
  return paramNames(pattern).length > 0;
}

/** URL path of the pre-rendered shell of a route (always ends with "/"). */
export function shellPath(pattern: string): string {
  if (pattern === '/') return '/';
  const segments = pattern.split('/').map((segment) => (PARAM.test(segment) ? SHELL_SEGMENT : segment));
  return `${segments.join('/')}/`;
}

/** Finds the route a concrete path belongs to, with its parameters. */
export function matchRoute(
  pathname: string,
  routes: readonly RouteMeta[] = ROUTES,
): { route: RouteMeta; params: Record<string, string> } | null {
  for (const route of routes) {
    const params = matchPattern(route.pattern, pathname);
    if (params) return { route, params };
  }
  return null;
}

/** Finds a route by its exact pattern; throws for a pattern that is not in the table. */
export function routeByPattern(pattern: string): RouteMeta {
  const route = ROUTES.find((candidate) => candidate.pattern === pattern);
  if (!route) throw new Error(`No route ${pattern} in the route table.`);
  return route;
}

/** Fills a pattern's parameters, encoding each. */
export function buildPath(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/\{([a-z_]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`Missing parameter ${name} for ${pattern}.`);
    return encodeURIComponent(value);
  });
}
