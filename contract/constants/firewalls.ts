/** The firewall's vocabulary and limits (docs/product.md §3): plain values, no zod, for schemas, compiler and islands. */

/** What the WAF does with what the rules find: nothing, log only (`DetectionOnly`), or block (`On`). */
export const firewallModes = ['off', 'detect', 'block'] as const;
export type FirewallMode = (typeof firewallModes)[number];

/** Human label of each mode. */
export const firewallModeLabels: Readonly<Record<FirewallMode, string>> = {
  off: 'Off',
  detect: 'Detect only',
  block: 'Block',
};

/** OWASP CRS paranoia levels and what each means for a site owner. */
export const paranoiaLevels = [1, 2, 3, 4] as const;
export type ParanoiaLevel = (typeof paranoiaLevels)[number];
export const paranoiaLevelMeanings: Readonly<Record<ParanoiaLevel, string>> = {
  1: 'Baseline: the rules almost never misfire. Right for most sites.',
  2: 'More rules against obfuscated attacks; expect a few false positives to exclude.',
  3: 'Strict: catches rarer evasions; needs tuning for most applications.',
  4: 'Paranoid: every rule on; many false positives, for high-security sites with time to tune.',
};

/** CRS application exclusion packages (REQUEST-903.900x) a firewall may turn on. */
export const crsApplications = ['wordpress', 'drupal', 'nextcloud', 'dokuwiki', 'cpanel', 'xenforo'] as const;
export type CrsApplication = (typeof crsApplications)[number];
export const crsApplicationLabels: Readonly<Record<CrsApplication, string>> = {
  wordpress: 'WordPress',
  drupal: 'Drupal',
  nextcloud: 'Nextcloud',
  dokuwiki: 'DokuWiki',
  cpanel: 'cPanel',
  xenforo: 'XenForo',
};

/** Custom rule condition fields, operators and actions (the condition builder). */
export const conditionFields = ['ip', 'country', 'method', 'path', 'query', 'header', 'userAgent'] as const;
export type ConditionField = (typeof conditionFields)[number];
export const conditionFieldLabels: Readonly<Record<ConditionField, string>> = {
  ip: 'Client IP',
  country: 'Country',
  method: 'Method',
  path: 'Path',
  query: 'Query string',
  header: 'Header',
  userAgent: 'User agent',
};

export const conditionOperators = ['equals', 'contains', 'startsWith', 'regex', 'inCidr'] as const;
export type ConditionOperator = (typeof conditionOperators)[number];
export const conditionOperatorLabels: Readonly<Record<ConditionOperator, string>> = {
  equals: 'equals',
  contains: 'contains',
  startsWith: 'starts with',
  regex: 'matches regex',
  inCidr: 'in CIDR list',
};

export const customRuleActions = ['block', 'allow', 'log'] as const;
export type CustomRuleAction = (typeof customRuleActions)[number];

export const rateLimitActions = ['block', 'log'] as const;
export type RateLimitAction = (typeof rateLimitActions)[number];

/** The connector's last report about a firewall. */
export const connectorStates = ['never', 'applied', 'failed'] as const;
export type ConnectorState = (typeof connectorStates)[number];

/** Sizes a firewall's settings may reach. */
export const firewallLimits = {
  hostnames: 50,
  trustedProxies: 50,
  exclusions: 500,
  customRules: 200,
  conditionsPerRule: 10,
  valuesPerCondition: 500,
  ipListEntries: 10_000,
  rateLimits: 50,
  nameLength: 80,
  commentLength: 500,
  regexLength: 1_000,
} as const;

/** Custom rules get ModSecurity ids from this reserved range (CRS and common vendors stay outside it). */
export const customRuleIdRange = { first: 4_200_000, last: 4_209_999 } as const;

/** Default anomaly thresholds of the CRS (crs-setup.conf). */
export const defaultThresholds = { inbound: 5, outbound: 4 } as const;

/** Proxies whose X-Forwarded-For is believed when a firewall names none. */
export const defaultTrustedProxies = ['127.0.0.1/32', '::1/128'] as const;
