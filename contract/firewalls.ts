/**
 * Firewalls (issue #12): the settings a person edits, the versions every save makes, and the connector's calls.
 * Every value that can land in an nginx or ModSecurity file is held to a narrow alphabet here, so no setting can
 * carry a quote, a newline or a semicolon into the generated configuration; the compiler escapes again.
 */
import { z } from 'zod';
import { hasControl, Id, SpaceParams, Timestamp } from './common.ts';
import {
  type ConditionField,
  conditionFields,
  conditionOperators,
  connectorStates,
  crsApplications,
  customRuleActions,
  defaultThresholds,
  defaultTrustedProxies,
  firewallLimits,
  firewallModes,
  paranoiaLevels,
  rateLimitActions,
} from './constants/firewalls.ts';
import { isProtectedRule } from './crs.ts';
import { Person } from './members.ts';
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

const Comment = z
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

/** The settings a new firewall starts with, besides what its creator gives. */
export const defaultFirewallSettings: Omit<FirewallSettings, 'name' | 'hostnames' | 'upstream' | 'mode'> = {
  trustedProxies: [...defaultTrustedProxies],
  managedRules: {
    paranoiaLevel: 1,
    inboundThreshold: defaultThresholds.inbound,
    outboundThreshold: defaultThresholds.outbound,
    disabledGroups: [],
    applications: [],
  },
  exclusions: [],
  customRules: [],
  ipAllow: [],
  ipDeny: [],
  countryBlock: [],
  rateLimits: [],
};

export const CreateFirewallBody = FirewallSettings.partial()
  .required({ name: true, hostnames: true, upstream: true, mode: true })
  .strict()
  .meta({ id: 'CreateFirewallBody' });
export type CreateFirewallBody = z.input<typeof CreateFirewallBody>;

/** Any subset of the settings, each given key replaced whole; `version` is the one the edit started from (409 when stale). */
export const UpdateFirewallBody = FirewallSettings.partial()
  .extend({ version: z.number().int().min(1).optional(), comment: Comment.optional() })
  .strict()
  .meta({ id: 'UpdateFirewallBody' });
export type UpdateFirewallBody = z.input<typeof UpdateFirewallBody>;

export const ConnectorStatus = z
  .object({
    state: z.enum(connectorStates),
    appliedVersion: z.number().int().nullable(),
    /** With state `failed`: the version that failed (`appliedVersion` keeps serving). */
    failedVersion: z.number().int().optional(),
    lastSeenAt: Timestamp.nullable(),
    /** The connector's words with its last report, e.g. the `nginx -t` message of a failed version. */
    message: z.string().optional(),
  })
  .meta({ id: 'ConnectorStatus' });
export type ConnectorStatus = z.infer<typeof ConnectorStatus>;

/** A firewall as the API answers it: its settings, newest version, connector state and 24 h figures. */
export const Firewall = FirewallSettings.extend({
  id: Id,
  spaceId: Id,
  version: z.number().int(),
  tokenPrefix: z.string(),
  connector: ConnectorStatus,
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).meta({ id: 'Firewall' });
export type Firewall = z.infer<typeof Firewall>;

/** One row of the firewall list, with its events and blocked requests of the last 24 hours (hourly buckets). */
export const FirewallSummary = Firewall.pick({
  id: true,
  name: true,
  hostnames: true,
  upstream: true,
  mode: true,
  version: true,
  connector: true,
}).extend({
  events24h: z.number().int(),
  blocked24h: z.number().int(),
  hourly: z.array(z.object({ hour: Timestamp, events: z.number().int(), blocked: z.number().int() })),
});
export type FirewallSummary = z.infer<typeof FirewallSummary>;
export const FirewallList = z.object({ items: z.array(FirewallSummary) }).meta({ id: 'FirewallList' });

/** A firewall with its connector token: answered once at creation and at each rotation. */
export const CreatedFirewall = Firewall.extend({ token: z.string() }).meta({ id: 'CreatedFirewall' });
export type CreatedFirewall = z.infer<typeof CreatedFirewall>;

export const FirewallParams = SpaceParams.extend({ id: Id });
export const FirewallVersionParams = FirewallParams.extend({ version: z.coerce.number().int().min(1) });

export const DeleteFirewallBody = z.object({ confirmName: z.string().max(200) }).meta({ id: 'DeleteFirewallBody' });
export const RollbackBody = z
  .object({ version: z.number().int().min(1), comment: Comment.optional() })
  .meta({ id: 'RollbackBody' });

export const FirewallVersionSummary = z
  .object({
    version: z.number().int(),
    createdAt: Timestamp,
    author: Person,
    comment: z.string().optional(),
    hash: z.string(),
  })
  .meta({ id: 'FirewallVersionSummary' });
export const FirewallVersionList = z
  .object({ items: z.array(FirewallVersionSummary) })
  .meta({ id: 'FirewallVersionList' });

/** One version: the settings as saved and the files they compiled to. */
export const FirewallVersion = FirewallVersionSummary.extend({
  settings: FirewallSettings,
  files: z.record(z.string(), z.string()),
}).meta({ id: 'FirewallVersion' });
export type FirewallVersion = z.infer<typeof FirewallVersion>;

/** What the connector pulls: the newest version's files, by relative name. */
export const ConnectorConfig = z
  .object({ firewallId: Id, version: z.number().int(), hash: z.string(), files: z.record(z.string(), z.string()) })
  .meta({ id: 'ConnectorConfig' });
export type ConnectorConfig = z.infer<typeof ConnectorConfig>;

export const ConnectorConfigQuery = z.object({ wait: z.coerce.number().int().min(0).max(60).optional() });

export const ConnectorStatusBody = z
  .object({
    version: z.number().int().min(1),
    state: z.enum(['applied', 'failed']),
    message: z.string().max(4000).optional(),
  })
  .meta({ id: 'ConnectorStatusBody' });

/** 409 for a save that started from an older version: the message names both versions and who saved the newer one. */
export const FirewallConflict = z
  .object({ error: z.object({ code: z.literal('version_conflict'), message: z.string(), current: Firewall }) })
  .meta({ id: 'FirewallConflict' });
