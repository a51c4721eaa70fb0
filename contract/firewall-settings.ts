/**
 * A firewall's settings, the ones a person edits and every version stores: host names, upstream, mode, managed CRS
 * rules, exclusions, custom rules, IP and country lists, rate limits. Every value that can land in an nginx or
 * ModSecurity file is held to a narrow alphabet here, so no setting can carry a quote, a newline or a semicolon into
 * the generated configuration; the compiler escapes again.
 */
import { z } from 'zod';
import { hasControl, Timestamp } from './common.ts';
import {
  type ConditionField,
  conditionFields,
  conditionOperators,
  crsApplications,
  customRuleActions,
  firewallLimits,
  firewallModes,
  paranoiaLevels,
  rateLimitActions,
} from './constants/firewalls.ts';
import { isProtectedRule } from './crs.ts';
import { formatNetwork, parseNetwork } from './query/ip.ts';
import { rateLimitProblem } from './rate-limits.ts';

const hostnamePattern = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
/** Header names as nginx and ModSecurity read them: letters, digits and dashes. */
const headerNamePattern = /^[A-Za-z0-9-]{1,64}$/;
/** A path prefix: starts with `/`, no spaces, quotes, backslashes or control characters. */
const pathPattern = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
const countryPattern = /^[A-Z]{2}$/;

/** One line of free text (a name or a comment): no control characters. */
function line(max: number, empty: string) {
  return z
    .string()
    .trim()
    .min(1, empty)
    .max(max, `Use at most ${max} characters.`)
    .refine((value) => !hasControl(value), 'Use one line without control characters.');
}

/** A comment of a setting or of a saved version: one line. */
export const Comment = z
  .string()
  .trim()
  .max(firewallLimits.commentLength, `Use at most ${firewallLimits.commentLength} characters.`)
  .refine((value) => !hasControl(value), 'Use one line without control characters.');

/** An IPv4 or IPv6 address or CIDR range, answered in its canonical form (`10.0.0.0/8`). */
export const Cidr = z
  .string()
  .trim()
  .max(64)
  .transform((value, ctx) => {
    const network = parseNetwork(value.includes('/') ? value : `${value}/${value.includes(':') ? 128 : 32}`);
    if (!network) {
      ctx.addIssue({ code: 'custom', message: `"${value}" is not an IP address or CIDR range.` });
      return z.NEVER;
    }
    return formatNetwork(network);
  });

export const Hostname = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(hostnamePattern, 'Use a host name such as shop.example.com or *.example.com.');

const controlNames: Readonly<Record<number, string>> = { 9: 'a tab', 10: 'a line break', 13: 'a carriage return' };
const codePoint = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Why an upstream URL cannot be used as typed, or null. A URL parser drops tabs and line breaks, and maps or drops
 * some non-ASCII characters, so such a value would be shown as typed while nginx proxies to another text: refused.
 */
export function upstreamProblem(value: string): string | null {
  for (const [index, char] of [...value].entries()) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f) {
      const name = controlNames[code] ?? `the control character ${codePoint(code)}`;
      return `Use an upstream URL without control characters: character ${index + 1} is ${name}.`;
    }
    if (code > 0x7e) {
      return `Use an upstream URL of printable ASCII characters: character ${index + 1} is ${codePoint(code)} (write an international host name in its xn-- form).`;
    }
  }
  try {
    const url = new URL(value);
    if (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.username === '' &&
      url.password === '' &&
      url.search === '' &&
      url.hash === '' &&
      (url.pathname === '/' || url.pathname === '') &&
      /^[A-Za-z0-9.\-[\]:]+$/.test(url.host)
    ) {
      return null;
    }
  } catch {}
  return 'Use http://host:port or https://host:port, without a path.';
}

/** `http://host:port` (or https): where the firewall sends the requests it lets through. */
export const Upstream = z
  .string()
  .trim()
  .max(300)
  .superRefine((value, ctx) => {
    const problem = upstreamProblem(value);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

export const FirewallMode = z.enum(firewallModes).meta({ id: 'FirewallMode' });
export const ParanoiaLevel = z.union(paranoiaLevels.map((level) => z.literal(level)));

const Threshold = z.number().int().min(1, 'Use a threshold of at least 1.').max(10_000);
const GroupName = z.string().regex(/^(REQUEST|RESPONSE)-\d{3}-[A-Z0-9-]+$/, 'Use a CRS rule file name.');

export const ManagedRules = z
  .object({
    paranoiaLevel: ParanoiaLevel,
    executingParanoiaLevel: ParanoiaLevel.optional(),
    inboundThreshold: Threshold,
    outboundThreshold: Threshold,
    disabledGroups: z.array(GroupName).max(100),
    applications: z.array(z.enum(crsApplications)).max(crsApplications.length),
  })
  .refine((rules) => (rules.executingParanoiaLevel ?? rules.paranoiaLevel) >= rules.paranoiaLevel, {
    message: 'The executing paranoia level cannot be below the paranoia level.',
    path: ['executingParanoiaLevel'],
  })
  .meta({ id: 'ManagedRules' });
export type ManagedRules = z.infer<typeof ManagedRules>;

/** A ModSecurity target an exclusion may name: a collection, optionally one member of it. */
const Target = z
  .string()
  .trim()
  .max(200)
  .regex(
    /^(ARGS|ARGS_GET|ARGS_POST|ARGS_NAMES|REQUEST_COOKIES|REQUEST_COOKIES_NAMES|REQUEST_HEADERS|REQUEST_HEADERS_NAMES|REQUEST_BODY|REQUEST_URI|REQUEST_FILENAME|XML|FILES|FILES_NAMES)(:[A-Za-z0-9_.\-[\]]{1,128})?$/,
    'Use a target such as ARGS:q, REQUEST_COOKIES:session or REQUEST_HEADERS:x-token.',
  );

export const Exclusion = z
  .object({
    ruleId: z
      .number()
      .int()
      .min(1)
      .max(99_999_999)
      .refine(
        (id) => !isProtectedRule(id),
        'Rules 949110, 959100, 980130, 980140 and the 901xxx initialisation decide whether a request is blocked: excluding one would switch the firewall off.',
      ),
    target: Target.optional(),
    path: z.string().max(1024).regex(pathPattern, 'Use a path prefix such as /api/search.').optional(),
    method: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{1,20}$/, 'Use an HTTP method such as GET or POST.')
      .optional(),
    comment: Comment.optional(),
  })
  .meta({ id: 'Exclusion' });
export type Exclusion = z.infer<typeof Exclusion>;

const fieldsFor: Readonly<Record<string, readonly ConditionField[]>> = {
  inCidr: ['ip'],
  regex: ['method', 'path', 'query', 'header', 'userAgent'],
  contains: ['method', 'path', 'query', 'header', 'userAgent'],
  startsWith: ['method', 'path', 'query', 'header', 'userAgent'],
  equals: conditionFields,
};

export const Condition = z
  .object({
    field: z.enum(conditionFields),
    header: z.string().regex(headerNamePattern, 'Use a header name of letters, digits and dashes.').optional(),
    operator: z.enum(conditionOperators),
    value: z.union([
      z.string().max(firewallLimits.regexLength),
      z.array(z.string().max(firewallLimits.regexLength)).min(1).max(firewallLimits.valuesPerCondition),
    ]),
    negate: z.boolean().optional(),
  })
  .superRefine((condition, ctx) => {
    if (condition.field === 'header' && !condition.header) {
      ctx.addIssue({ code: 'custom', path: ['header'], message: 'Name the header.' });
    }
    if (!fieldsFor[condition.operator]?.includes(condition.field)) {
      ctx.addIssue({
        code: 'custom',
        path: ['operator'],
        message: `"${condition.operator}" does not apply to the ${condition.field} field.`,
      });
    }
    const values = Array.isArray(condition.value) ? condition.value : [condition.value];
    for (const [index, value] of values.entries()) {
      const path = Array.isArray(condition.value) ? ['value', index] : ['value'];
      if (value.length === 0) ctx.addIssue({ code: 'custom', path, message: 'Enter a value.' });
      else if (hasControl(value)) {
        ctx.addIssue({ code: 'custom', path, message: 'Use values without control characters or line breaks.' });
      } else if (
        condition.field === 'ip' &&
        !parseNetwork(value.includes('/') ? value : `${value}/${value.includes(':') ? 128 : 32}`)
      ) {
        ctx.addIssue({ code: 'custom', path, message: `"${value}" is not an IP address or CIDR range.` });
      } else if (condition.field === 'country' && !countryPattern.test(value)) {
        ctx.addIssue({ code: 'custom', path, message: `"${value}" is not a two-letter country code such as FR.` });
      }
      // Regexes are judged by the API with PCRE, as ModSecurity compiles them (JavaScript's RegExp refuses valid
      // PCRE such as `(?i)` and accepts some PCRE does not).
    }
  })
  .meta({ id: 'Condition' });
export type Condition = z.infer<typeof Condition>;

export const CustomRule = z
  .object({
    /** The ModSecurity id, from the reserved range; assigned on first save and kept across versions. */
    id: z.number().int().optional(),
    name: line(firewallLimits.nameLength, 'Name the rule.'),
    enabled: z.boolean(),
    action: z.enum(customRuleActions),
    conditions: z.array(Condition).min(1, 'Add at least one condition.').max(firewallLimits.conditionsPerRule),
  })
  .meta({ id: 'CustomRule' });
export type CustomRule = z.infer<typeof CustomRule>;

export const IpEntry = z
  .object({ cidr: Cidr, comment: Comment.optional(), expiresAt: Timestamp.optional() })
  .meta({ id: 'IpEntry' });
export type IpEntry = z.infer<typeof IpEntry>;

export const RateLimit = z
  .object({
    path: z.string().max(1024).regex(pathPattern, 'Use a path prefix such as /login.'),
    requests: z.number().int().min(1, 'Allow at least 1 request.').max(100_000),
    windowSeconds: z
      .number()
      .int()
      .min(1, 'Use a window of at least 1 s.')
      .max(86_400, 'Use a window of at most one day (86 400 s).'),
    action: z.enum(rateLimitActions),
  })
  .superRefine((limit, ctx) => {
    const problem = rateLimitProblem(limit);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['windowSeconds'], message: problem });
  })
  .meta({ id: 'RateLimit' });
export type RateLimit = z.infer<typeof RateLimit>;

function unique<T extends z.ZodType>(item: T, max: number, what: string) {
  return z
    .array(item)
    .max(max, `Use at most ${max.toLocaleString('en')} ${what}.`)
    .refine(
      (list) => new Set(list.map((entry) => JSON.stringify(entry))).size === list.length,
      `Each of the ${what} once.`,
    );
}

/** Everything a firewall's configuration is compiled from. */
export const FirewallSettings = z
  .object({
    name: line(firewallLimits.nameLength, 'Name the firewall.'),
    hostnames: unique(Hostname, firewallLimits.hostnames, 'host names').min(1, 'Add at least one host name.'),
    upstream: Upstream,
    mode: FirewallMode,
    trustedProxies: unique(Cidr, firewallLimits.trustedProxies, 'trusted proxies'),
    managedRules: ManagedRules,
    exclusions: z.array(Exclusion).max(firewallLimits.exclusions),
    customRules: z.array(CustomRule).max(firewallLimits.customRules),
    ipAllow: z.array(IpEntry).max(firewallLimits.ipListEntries),
    ipDeny: z.array(IpEntry).max(firewallLimits.ipListEntries),
    countryBlock: unique(
      z.string().regex(countryPattern, 'Use two-letter country codes such as FR.'),
      250,
      'countries',
    ),
    rateLimits: z.array(RateLimit).max(firewallLimits.rateLimits),
  })
  .meta({ id: 'FirewallSettings' });
export type FirewallSettings = z.infer<typeof FirewallSettings>;
