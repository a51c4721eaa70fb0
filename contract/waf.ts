/**
 * WAF discover and its one-click remedies: WAF events grouped by client IP, rule, path or country with a sparkline
 * each, and the two firewall changes a group suggests (block an IP for a while, exclude a rule on a path), previewed
 * against stored events before they become a new firewall version; and a WAF alert's context, the firewall and the
 * requests that triggered it.
 */
import { z } from 'zod';
import { AlertParams } from './alerts.ts';
import { Id, Timestamp } from './common.ts';
import { firewallLimits } from './constants/firewalls.ts';
import { discoverGroups, discoverScopes, discoverSorts } from './constants/waf.ts';
import { EventFilters } from './event-search.ts';
import { Severity } from './events.ts';
import { Cidr, Exclusion, FirewallMode, IpEntry } from './firewall-settings.ts';
import { Firewall } from './firewalls.ts';

/** Discover's filters: the event log's query and range (default the last 24 h), the grouping, the order, how many groups. */
export const DiscoverQuery = EventFilters.extend({
  scope: z.enum(discoverScopes, 'Choose waf or all.').default('waf'),
  groupBy: z.enum(discoverGroups, 'Choose ip, rule, path or country.').default('ip'),
  sort: z.enum(discoverSorts, 'Choose count, blocked, ips or lastSeen.').default('count'),
  limit: z.coerce.number().int().min(1).max(200, 'Ask for at most 200 groups.').default(50),
  /** How many groups, in the order asked, come before the first one answered (the next page starts at offset + limit). */
  offset: z.coerce
    .number()
    .int('Use a whole number of groups.')
    .min(0, 'The offset cannot be negative.')
    .max(100_000, 'Ask for an offset of at most 100 000 groups.')
    .default(0),
});
export type DiscoverQuery = z.input<typeof DiscoverQuery>;

/** One group: its counts, when it was seen, its most frequent rule and its events per time bucket. */
export const DiscoverItem = z
  .object({
    key: z.string(),
    count: z.number().int(),
    blocked: z.number().int(),
    distinctIps: z.number().int(),
    firstSeen: Timestamp,
    lastSeen: Timestamp,
    topRule: z.object({ id: z.number().int(), count: z.number().int() }).nullable(),
    /** Events per bucket, oldest first; every item's has `buckets` entries. */
    sparkline: z.array(z.number().int()),
  })
  .meta({ id: 'DiscoverItem' });
export type DiscoverItem = z.infer<typeof DiscoverItem>;

/** The groups of the range, largest first by the chosen order, with the bucket layout their sparklines share. */
export const DiscoverAnswer = z
  .object({
    groupBy: z.enum(discoverGroups),
    from: Timestamp,
    to: Timestamp,
    /** Width of a sparkline bucket; the first starts at a multiple of it since the epoch, at or before `from`. */
    bucketSeconds: z.number().int(),
    buckets: z.number().int(),
    items: z.array(DiscoverItem),
    /** Matching events in the range (an event with two rules counts once). */
    total: z.number().int(),
    /** Groups in the range, of which `items` are the `limit` after the first `offset`. */
    groups: z.number().int(),
  })
  .meta({ id: 'DiscoverAnswer' });
export type DiscoverAnswer = z.infer<typeof DiscoverAnswer>;

/** What a remedy writes before the person's comment, so the firewall's lists say where an entry came from. */
export const remedyCommentPrefix = { 'block-ip': 'Blocked from WAF discover: ', 'exclude-rule': 'From WAF discover: ' };

/** The person's part of the entry's comment: room is left for the prefix within the firewall's comment length. */
const RemedyComment = IpEntry.shape.comment
  .unwrap()
  .max(firewallLimits.commentLength - 30)
  .optional();

const BlockIp = z.object({
  kind: z.literal('block-ip'),
  firewallId: Id,
  ip: Cidr,
  durationMinutes: z
    .number()
    .int('Use whole minutes.')
    .min(1, 'Block for at least one minute.')
    .max(525_600, 'Block for at most a year (525 600 minutes).')
    /** null: a block with no end, until someone removes the entry. */
    .nullable(),
  comment: RemedyComment,
});

const ExcludeRule = z.object({
  kind: z.literal('exclude-rule'),
  firewallId: Id,
  ruleId: Exclusion.shape.ruleId,
  path: Exclusion.shape.path.unwrap(),
  comment: RemedyComment,
});

/** A remedy to preview: block an IP or CIDR on a firewall for a while, or exclude a rule on a path prefix. */
export const Remedy = z.discriminatedUnion('kind', [BlockIp, ExcludeRule]).meta({ id: 'Remedy' });
export type Remedy = z.infer<typeof Remedy>;
export type RemedyInput = z.input<typeof Remedy>;

/** `version` is the firewall version the preview was computed against: a newer one answers 409. */
const Started = { version: z.number().int().min(1) };

/** A remedy to apply, with the firewall version its preview showed. */
export const ApplyRemedyBody = z
  .discriminatedUnion('kind', [BlockIp.extend(Started), ExcludeRule.extend(Started)])
  .meta({ id: 'ApplyRemedyBody' });
export type ApplyRemedyBody = z.input<typeof ApplyRemedyBody>;

/** What a remedy would change: the firewall, what it would have affected in 7 days, the sentence and the file diff. */
export const RemedyPreview = z
  .object({
    firewall: z.object({ id: Id, name: z.string(), mode: FirewallMode, version: z.number().int() }),
    /** Stored events of the firewall the change would have matched over the last 7 days. */
    affected: z.object({
      requests: z.number().int(),
      distinctIps: z.number().int(),
      from: Timestamp,
      to: Timestamp,
      /** Every request of the firewall in the window: 0 when it has seen no traffic there at all. */
      firewallRequests: z.number().int(),
      /** What the remedy matches among the space's events of the window, whichever firewall or source they came from. */
      space: z.object({ requests: z.number().int(), distinctIps: z.number().int() }),
    }),
    /** True when the firewall already does this: applying would change nothing. */
    alreadyInPlace: z.boolean(),
    change: z.string(),
    /** The compiled files that differ: `before` as the current version has it (empty when new), `after` as it would be. */
    files: z.array(z.object({ name: z.string(), before: z.string(), after: z.string() })),
  })
  .meta({ id: 'RemedyPreview' });
export type RemedyPreview = z.infer<typeof RemedyPreview>;

/** The firewall at the version the remedy made. */
export const RemedyResult = z.object({ firewall: Firewall, version: z.number().int() }).meta({ id: 'RemedyResult' });
export type RemedyResult = z.infer<typeof RemedyResult>;

/** One rule a WAF request matched, with ModSecurity's words for it. */
export const MatchedRule = z.object({
  id: z.number().int(),
  message: z.string().nullable(),
  /** What matched, as ModSecurity logged it (`Matched Data: … found within ARGS:id: …`). */
  data: z.string().nullable(),
  severity: Severity.nullable(),
});

/** A request that triggered a WAF alert, read from its event (and the raw ModSecurity record when there is one). */
export const WafRequest = z
  .object({
    eventId: Id,
    time: Timestamp,
    ip: z.string().nullable(),
    method: z.string().nullable(),
    host: z.string().nullable(),
    path: z.string().nullable(),
    /** Query-string arguments, decoded. */
    args: z.array(z.object({ name: z.string(), value: z.string() })),
    status: z.number().int().nullable(),
    action: z.string(),
    rules: z.array(MatchedRule),
  })
  .meta({ id: 'WafRequest' });
export type WafRequest = z.infer<typeof WafRequest>;

/** `GET .../alerts/{id}/waf`: the firewall of a WAF alert, its mode and version then and now, and the requests. */
export const WafAlertContext = z
  .object({
    firewall: z.object({ id: Id, name: z.string(), mode: z.string(), version: z.number().int() }),
    /** The firewall's version when the alert opened (its mode then), or null when it is older than every version. */
    atFirstSeen: z.object({ version: z.number().int(), mode: z.string(), createdAt: Timestamp }).nullable(),
    requests: z.array(WafRequest),
  })
  .meta({ id: 'WafAlertContext' });
export type WafAlertContext = z.infer<typeof WafAlertContext>;

export const WafAlertParams = AlertParams.extend({ wafId: Id });
