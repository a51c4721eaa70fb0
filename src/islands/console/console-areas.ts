/** The console's areas in the navigation rail, each a route of the seed's table. */
export interface ConsoleArea {
  readonly label: string;
  readonly pattern: string;
  /** Other patterns under which the area is current (its child routes). */
  readonly children: readonly string[];
  readonly icon: string;
}

export const CONSOLE_AREAS: readonly ConsoleArea[] = [
  { label: 'Overview', pattern: '/console/{space_id}', children: [], icon: '◎' },
  {
    label: 'Events',
    pattern: '/console/siem/{space_id}',
    children: ['/console/siem/manage/{space_id}/{id}'],
    icon: '≡',
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
