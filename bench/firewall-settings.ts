/**
 * The firewall the firewall bench measures, built here and checked against the contract: paranoia 1, a 10 000-entry
 * deny list, 50 custom rules and 20 exclusions, none of which matches the bench's own requests (so every measured
 * request goes through every rule and the CRS and answers 200).
 */
import { type CustomRule, type Exclusion, FirewallSettings } from '../contract/firewall-settings.ts';

/** 10 000 deny entries: single addresses and /24 ranges in 11.0.0.0/8 and 100.64.0.0/10, never loopback. */
function denyList(): FirewallSettings['ipDeny'] {
  return Array.from({ length: 10_000 }, (_, i) =>
    i % 2 === 0
      ? { cidr: `11.${(i >> 8) & 255}.${i & 255}.${1 + (i % 200)}`, comment: `scanner ${i}` }
      : { cidr: `100.${64 + ((i >> 8) & 63)}.${i & 255}.0/24` },
  );
}

/** 50 custom rules over every field and operator, block and log, one or two conditions each. */
function customRules(): CustomRule[] {
  const rules: CustomRule[] = [];
  for (let i = 0; i < 50; i += 1) {
    const kind = i % 10;
    const conditions: CustomRule['conditions'] = [
      kind === 0
        ? { field: 'path', operator: 'startsWith', value: `/admin-${i}/` }
        : kind === 1
          ? { field: 'userAgent', operator: 'contains', value: [`badbot-${i}`, `scraper-${i}`] }
          : kind === 2
            ? { field: 'header', header: 'X-Api-Key', operator: 'equals', value: `revoked-key-${i}` }
            : kind === 3
              ? { field: 'query', operator: 'regex', value: `(?i)debug_${i}=(?:1|true)` }
              : kind === 4
                ? { field: 'ip', operator: 'inCidr', value: [`198.18.${i}.0/24`, `2001:db8:${i}::/48`] }
                : kind === 5
                  ? { field: 'method', operator: 'equals', value: ['TRACE', 'TRACK'] }
                  : kind === 6
                    ? { field: 'path', operator: 'regex', value: `^/wp-(?:login|admin)-${i}\\.php$` }
                    : kind === 7
                      ? { field: 'country', operator: 'equals', value: ['KP'] }
                      : kind === 8
                        ? { field: 'header', header: 'Referer', operator: 'contains', value: `spam-${i}.example` }
                        : { field: 'path', operator: 'contains', value: `/.git-${i}` },
    ];
    if (i % 3 === 0) conditions.push({ field: 'method', operator: 'equals', value: 'POST', negate: i % 2 === 0 });
    rules.push({ name: `bench rule ${i}`, enabled: i % 25 !== 24, action: i % 5 === 4 ? 'log' : 'block', conditions });
  }
  return rules;
}

/** 20 exclusions of CRS rules: global, by target, by path prefix and by method. */
function exclusions(): Exclusion[] {
  const ids = [
    920230, 942100, 942200, 942260, 920300, 942340, 942430, 941100, 921110, 941160, 932100, 932115, 933100, 930120,
    942370, 942440, 934100, 920420, 932200, 941310,
  ];
  return ids.map((ruleId, i) =>
    i % 4 === 0
      ? { ruleId, comment: 'false positive on the shop' }
      : i % 4 === 1
        ? { ruleId, target: `ARGS:search_${i}` }
        : i % 4 === 2
          ? { ruleId, path: `/api/import-${i}`, method: 'POST' }
          : { ruleId, target: `REQUEST_COOKIES:session_${i}`, path: '/account/' },
  );
}

/** The bench firewall's settings (block mode), parsed by the contract so they are what the API would accept. */
export function benchFirewallSettings(upstream: string): FirewallSettings {
  return FirewallSettings.parse({
    name: 'bench shop',
    hostnames: ['shop.example.com', 'localhost', '127.0.0.1'],
    upstream,
    mode: 'block',
    trustedProxies: ['127.0.0.1/32', '::1/128'],
    managedRules: { paranoiaLevel: 1, inboundThreshold: 5, outboundThreshold: 4, disabledGroups: [], applications: [] },
    exclusions: exclusions(),
    customRules: customRules(),
    ipAllow: [],
    ipDeny: denyList(),
    countryBlock: [],
    rateLimits: [],
  });
}
