import { buildPath } from '../../lib/routes.ts';

/** The console's areas in the navigation rail, each a route of the seed's table (some a view of one). */
export interface ConsoleArea {
  readonly label: string;
  readonly pattern: string;
  /**
   * The `view` query parameter that makes the route this area, where one route shows two areas (the event log and
   * its log sources); an area without one is current on its route whatever another area's view would be.
   */
  readonly view?: string;
  /** Other patterns under which the area is current (its child routes). */
  readonly children: readonly string[];
  readonly icon: string;
}

/** The `view` parameter that shows the log sources on the event log's route. */
export const SOURCES_VIEW = 'sources';

export const CONSOLE_AREAS: readonly ConsoleArea[] = [
  { label: 'Overview', pattern: '/console/{space_id}', children: [], icon: '◎' },
  { label: 'Events', pattern: '/console/siem/{space_id}', children: [], icon: '≡' },
  {
    label: 'Log sources',
    pattern: '/console/siem/{space_id}',
    view: SOURCES_VIEW,
    children: ['/console/siem/manage/{space_id}/{id}'],
    icon: '⇶',
  },
  { label: 'Alerts', pattern: '/console/alert/{space_id}', children: ['/console/alert/{space_id}/{id}'], icon: '⚑' },
  {
    label: 'Discover',
    pattern: '/console/alerts/waf/discover/{space_id}',
    children: ['/console/alerts/waf/{space_id}/{waf_id}/{id}'],
    icon: '⌕',
  },
  {
    label: 'Firewalls',
    pattern: '/console/firewall/{space_id}',
    children: ['/console/firewall/config/{space_id}/{id}'],
    icon: '▥',
  },
  {
    label: 'Dashboards',
    pattern: '/console/dashboard/{space_id}',
    children: ['/console/dashboard/explore/{space_id}/{id}'],
    icon: '▦',
  },
  { label: 'Assessment', pattern: '/console/vulnerabilities/assessment/{space_id}', children: [], icon: '⚠' },
  { label: 'Vulnerability library', pattern: '/console/vulnerabilities/refs/{space_id}', children: [], icon: '❏' },
  {
    label: 'Subscription',
    pattern: '/console/subscription/{space_id}',
    children: ['/console/subscription/upgrade/{space_id}', '/console/subscription/payment-history/{space_id}'],
    icon: '◈',
  },
  { label: 'Members', pattern: '/console/management/member/{space_id}', children: [], icon: '☺' },
  { label: 'Settings', pattern: '/console/management/general/{space_id}', children: [], icon: '⚙' },
  { label: 'Activity', pattern: '/console/management/activity/{space_id}', children: [], icon: '↻' },
];

/** The area a page belongs to: the one whose route (and view, where it names one) it is, or whose child it is. */
export function areaOf(pattern: string, view: string | null): ConsoleArea | undefined {
  const onRoute = CONSOLE_AREAS.filter((area) => area.pattern === pattern);
  return (
    onRoute.find((area) => area.view !== undefined && area.view === view) ??
    onRoute.find((area) => area.view === undefined) ??
    CONSOLE_AREAS.find((area) => area.children.includes(pattern))
  );
}

/** The address of an area in a space. */
export function areaHref(area: ConsoleArea, spaceId: string): string {
  const path = buildPath(area.pattern, { space_id: spaceId });
  return area.view === undefined ? path : `${path}?view=${encodeURIComponent(area.view)}`;
}

/** The route's `view` named by a query string: empty when it names none (useUrlView gives null before hydration). */
export function readView(search: string): string {
  return new URLSearchParams(search).get('view') ?? '';
}

/** The log sources of a space: the event log's route with its sources view. */
export function logSourcesPath(spaceId: string): string {
  return `${buildPath('/console/siem/{space_id}', { space_id: spaceId })}?view=${SOURCES_VIEW}`;
}
