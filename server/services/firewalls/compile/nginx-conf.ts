import type { FirewallSettings, RateLimit } from '../../../../contract/firewall-settings.ts';
import { limitReqRate } from '../../../../contract/rate-limits.ts';
import { commentText, nginxString, UnsafeValueError } from './escape.ts';
import { cidrText } from './networks.ts';

/** The nginx side: `http.conf` (http level) and `server.conf` (inside the host's `server {}`). */
export type NginxFiles = { http: string; server: string };

const hostname = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** A host name, an IPv4 address or a bracketed IPv6 address, and an optional port. */
const upstreamHost =
  /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*)(:\d{1,5})?$/;

/**
 * `http://host:port` as nginx's `proxy_pass` target; refused unless it is a bare scheme, host and port, written in
 * printable ASCII (a URL parser drops tabs and line breaks and maps some other characters, so the target would differ).
 */
export function proxyTarget(upstream: string): string {
  if (!/^[\x21-\x7e]+$/.test(upstream)) throw new UnsafeValueError(`Not an upstream URL: ${JSON.stringify(upstream)}`);
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    throw new UnsafeValueError(`Not an upstream URL: ${JSON.stringify(upstream)}`);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    !upstreamHost.test(url.host) ||
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== '' ||
    (url.pathname !== '/' && url.pathname !== '')
  ) {
    throw new UnsafeValueError(`Not an upstream URL: ${JSON.stringify(upstream)}`);
  }
  return `${url.protocol}//${url.host}`;
}

/**
 * N requests per W seconds as nginx's rate, whole requests a second or a minute; refused when it is neither (the
 * contract refuses such a limit: rounding would enforce another rate than the console shows).
 */
export function nginxRate(limit: Pick<RateLimit, 'requests' | 'windowSeconds'>): string {
  const rate = limitReqRate(limit);
  if (rate === null) {
    throw new UnsafeValueError(`No nginx rate is ${limit.requests} requests per ${limit.windowSeconds} s.`);
  }
  return `${rate.count}r/${rate.unit}`;
}

/** The zone name of a rate limit: unique per firewall on a shared nginx, letters, digits and `_` only. */
function zoneName(firewallId: string, index: number): string {
  return `sg_${firewallId.replace(/[^A-Za-z0-9]/g, '')}_${index}`;
}

/** Settings with the mode's effect on rate limits: off has none, detect only logs (dry run), block as each says. */
function effectiveLimits(settings: FirewallSettings): Array<RateLimit & { zone: number }> {
  if (settings.mode === 'off') return [];
  return settings.rateLimits.map((limit, zone) => ({
    ...limit,
    action: settings.mode === 'detect' ? 'log' : limit.action,
    zone,
  }));
}

function checkedInt(value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new UnsafeValueError(`Out of range: ${value}`);
  return value;
}

/** `http.conf`: one `limit_req_zone` per rate limit, keyed by the client address (after realip). */
function httpConf(firewallId: string, settings: FirewallSettings, header: string): string {
  const zones = effectiveLimits(settings).map((limit) => {
    checkedInt(limit.requests, 1, 100_000);
    checkedInt(limit.windowSeconds, 1, 86_400);
    return `# Rate limit ${limit.zone}: ${limit.requests} requests per ${limit.windowSeconds} s on ${commentText(limit.path)} (${limit.action})
limit_req_zone $binary_remote_addr zone=${zoneName(firewallId, limit.zone)}:5m rate=${nginxRate(limit)};`;
  });
  return [header, '# Include once at http level, before the server that includes server.conf.', ...zones]
    .join('\n')
    .concat('\n');
}

/**
 * One location per distinct rate-limited prefix (and `/`), each proxying to the upstream (a `return` would skip
 * ModSecurity's phase 2 and `limit_req`). A location applies every limit whose prefix is a prefix of its own, since nginx
 * picks one location per request. nginx's dry run is per location: where block and log limits meet, the log ones are left
 * out (named in a comment).
 */
function locations(firewallId: string, settings: FirewallSettings, target: string): string {
  const limits = effectiveLimits(settings);
  const paths = [...new Set(['/', ...limits.map((limit) => limit.path)])].sort();
  return paths
    .map((path) => {
      const applying = limits.filter((limit) => path.startsWith(limit.path));
      const blocking = applying.filter((limit) => limit.action === 'block');
      const used = blocking.length > 0 ? blocking : applying;
      // burst N-1 lets exactly N requests through at once (nginx refuses burst=0: one request is the default).
      const lines = used.map((limit) => {
        const burst = checkedInt(limit.requests, 1, 100_000) - 1;
        return `    limit_req zone=${zoneName(firewallId, limit.zone)}${burst > 0 ? ` burst=${burst}` : ''} nodelay;`;
      });
      if (blocking.length === 0 && applying.length > 0) lines.push('    limit_req_dry_run on;');
      for (const limit of applying.filter((each) => !used.includes(each))) {
        lines.push(
          `    # Rate limit ${limit.zone} (log) not applied here: nginx cannot log one limit and enforce another in one location`,
        );
      }
      lines.push(`    proxy_pass ${target};`);
      const name = path === '/' ? '/' : nginxString(path);
      return `location ${name} {\n${lines.join('\n')}\n}`;
    })
    .join('\n');
}

/** `server.conf`: names, realip from the trusted proxies, header handling, ModSecurity on, the proxied locations. */
function serverConf(firewallId: string, settings: FirewallSettings, header: string): string {
  const names = settings.hostnames.map((name) => {
    if (!hostname.test(name)) throw new UnsafeValueError(`Not a host name: ${JSON.stringify(name)}`);
    return name;
  });
  const proxies = [...new Set(settings.trustedProxies.map(cidrText))];
  const target = proxyTarget(settings.upstream);
  const realip =
    proxies.length === 0
      ? ['# No trusted proxies: X-Forwarded-For is not believed.']
      : [
          '# X-Forwarded-For believed from the trusted proxies only; ModSecurity and the rate limits see the client',
          ...proxies.map((cidr) => `set_real_ip_from ${cidr};`),
          'real_ip_header X-Forwarded-For;',
          'real_ip_recursive on;',
        ];
  return [
    header,
    '# Include inside the server {} that listens for this firewall; the host adds modsecurity_rules_file (see README).',
    `server_name ${names.join(' ')};`,
    '# Headers with "_" or "." reach ModSecurity and the upstream instead of being dropped',
    'underscores_in_headers on;',
    'ignore_invalid_headers off;',
    ...realip,
    'modsecurity on;',
    'modsecurity_transaction_id "$request_id";',
    'limit_req_status 429;',
    'proxy_http_version 1.1;',
    'proxy_set_header Host $host;',
    'proxy_set_header X-Real-IP $remote_addr;',
    'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    'proxy_set_header X-Forwarded-Proto $scheme;',
    ...(target.startsWith('https:') ? ['proxy_ssl_server_name on;'] : []),
    locations(firewallId, settings, target),
  ]
    .join('\n')
    .concat('\n');
}

/** Both nginx files of a firewall. */
export function compileNginx(input: { firewallId: string; settings: FirewallSettings; header: string }): NginxFiles {
  return {
    http: httpConf(input.firewallId, input.settings, input.header),
    server: serverConf(input.firewallId, input.settings, input.header),
  };
}
