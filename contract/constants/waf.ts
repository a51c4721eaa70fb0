/** WAF discover's and its remedies' plain values (no zod), for schemas, server and islands. */

/** What discover groups events by. */
export const discoverGroups = ['ip', 'rule', 'path', 'country'] as const;
export type DiscoverGroup = (typeof discoverGroups)[number];

/** What discover orders its groups by, largest first. */
export const discoverSorts = ['count', 'blocked', 'ips', 'lastSeen'] as const;
export type DiscoverSort = (typeof discoverSorts)[number];

/** Which events discover reads: WAF events (with a rule id or a firewall) or every event; `q` narrows either. */
export const discoverScopes = ['waf', 'all'] as const;
export type DiscoverScope = (typeof discoverScopes)[number];

/** Block durations the screens offer, in minutes: an hour, a day, a week. */
export const blockDurations = [60, 1_440, 10_080] as const;
