/**
 * Alert rules, alerts, their triage and notifications (issue #15, PRODUCT.md §3 and §5): the bodies and answers the
 * API and the islands share. Queries are in the event query language (contract/query/README.md); the server parses
 * them and a 400 names the position.
 */
import { z } from 'zod';
import { Email } from './auth.ts';
import { Cursor, csv, Id, SpaceParams, Timestamp } from './common.ts';
import { alertGroupFields, alertLimits, alertRuleKinds, alertStatuses, notificationTypes } from './constants/alerts.ts';
import { severities } from './constants/events.ts';
import { EventSummary, Severity } from './events.ts';
import { hasControl } from './firewalls.ts';

export const AlertRuleKind = z.enum(alertRuleKinds).meta({ id: 'AlertRuleKind' });
export const AlertStatus = z.enum(alertStatuses).meta({ id: 'AlertStatus' });
export type AlertStatus = z.infer<typeof AlertStatus>;
export const AlertGroupField = z.enum(alertGroupFields).meta({ id: 'AlertGroupField' });
export type AlertGroupField = z.infer<typeof AlertGroupField>;
export const NotificationType = z.enum(notificationTypes).meta({ id: 'NotificationType' });

const Name = z
  .string()
  .trim()
  .min(1, 'Name the rule.')
  .max(alertLimits.nameLength, `Use at most ${alertLimits.nameLength} characters.`)
  .refine((value) => !hasControl(value), 'Use one line without control characters.');

const Query = z.string().max(alertLimits.queryLength, `Use at most ${alertLimits.queryLength} characters.`);

const minutes = (bounds: { min: number; max: number }, what: string) =>
  z
    .number()
    .int(`Give ${what} in whole minutes.`)
    .min(bounds.min, `Use at least ${bounds.min} minute${bounds.min === 1 ? '' : 's'}.`)
    .max(bounds.max, `Use at most ${bounds.max.toLocaleString('en')} minutes.`);

/**
 * A webhook address: http or https, no credentials in it. Whether its host may be reached (addresses that are not
 * globally reachable are refused unless WEBHOOK_ALLOWED_HOSTS lists them; loopback is allowed outside production) is
 * the server's check.
 */
export const WebhookUrl = z
  .string()
  .trim()
  .max(2_000, 'Use at most 2000 characters.')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, 'Use an http:// or https:// address without a user name or password in it.');

/** The secret webhook bodies are signed with: HMAC-SHA256, so at least 16 characters. */
export const WebhookSecret = z
  .string()
  .min(16, 'Use a secret of at least 16 characters.')
  .max(200, 'Use at most 200 characters.');

export const EmailChannel = z
  .object({
    kind: z.literal('email'),
    to: z
      .array(Email)
      .min(1, 'Add at least one address.')
      .max(alertLimits.emailsPerChannel, `Use at most ${alertLimits.emailsPerChannel} addresses.`),
  })
  .strict()
  .meta({ id: 'EmailChannel' });

/** A webhook channel as written: on an update, a channel without `secret` keeps the secret of the same URL. */
export const WebhookChannelInput = z
  .object({ kind: z.literal('webhook'), url: WebhookUrl, secret: WebhookSecret.optional() })
  .strict()
  .meta({ id: 'WebhookChannelInput' });

export const ChannelInput = z.discriminatedUnion('kind', [EmailChannel, WebhookChannelInput]);
export type ChannelInput = z.infer<typeof ChannelInput>;

/** A webhook channel as answered: the secret never leaves the server, only its last four characters. */
export const WebhookChannel = z
  .object({ kind: z.literal('webhook'), url: z.string(), secretHint: z.string() })
  .meta({ id: 'WebhookChannel' });
export const Channel = z.discriminatedUnion('kind', [EmailChannel, WebhookChannel]);
export type Channel = z.infer<typeof Channel>;

const ruleFields = {
  name: Name,
  enabled: z.boolean(),
  severity: Severity,
  kind: AlertRuleKind,
  query: Query,
  /** Threshold: the rule fires when more than this many events match within the window, per group. */
  threshold: z
    .number()
    .int('Use a whole number.')
    .min(alertLimits.threshold.min, 'Use 0 or more.')
    .max(alertLimits.threshold.max, `Use at most ${alertLimits.threshold.max.toLocaleString('en')}.`)
    .nullable(),
  windowMinutes: minutes(alertLimits.windowMinutes, 'the window').nullable(),
  groupBy: z
    .array(AlertGroupField)
    .max(alertLimits.groupFields, `Group by at most ${alertLimits.groupFields} fields.`)
    .refine((list) => new Set(list).size === list.length, 'Name each field once.'),
  /** Silence: the source, or the firewall, whose events are watched. */
  sourceId: Id.nullable(),
  firewallId: Id.nullable(),
  /** `{ip}`, `{country}`… (the group's fields), `{rule}` (the rule's name) and `{count}` are filled in. */
  titleTemplate: z
    .string()
    .trim()
    .max(alertLimits.titleLength, `Use at most ${alertLimits.titleLength} characters.`)
    .refine((value) => !hasControl(value), 'Use one line without control characters.')
    .nullable(),
  renotifyMinutes: minutes(alertLimits.repeatMinutes, 'the re-notify interval').nullable(),
  autoResolveMinutes: minutes(alertLimits.repeatMinutes, 'the auto-resolve delay').nullable(),
  channels: z.array(ChannelInput).max(alertLimits.channels, `Use at most ${alertLimits.channels} channels.`),
};

type RuleShape = {
  kind?: string | undefined;
  query?: string | undefined;
  threshold?: number | null | undefined;
  windowMinutes?: number | null | undefined;
  sourceId?: string | null | undefined;
  firewallId?: string | null | undefined;
};

/** What each kind needs besides the common fields: a threshold and a window, or one watched source or firewall. */
export function ruleKindIssues(rule: RuleShape): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  const issue = (path: string, message: string) => issues.push({ path, message });
  if (rule.kind === 'threshold') {
    if (rule.threshold === undefined || rule.threshold === null)
      issue('threshold', 'A threshold rule needs a threshold: it fires above this many events.');
    if (rule.windowMinutes === undefined || rule.windowMinutes === null)
      issue('windowMinutes', 'A threshold rule needs a window in minutes.');
  }
  if (rule.kind === 'silence') {
    const source = rule.sourceId ?? null;
    const firewall = rule.firewallId ?? null;
    if ((source === null) === (firewall === null))
      issue('sourceId', 'A silence rule watches one source or one firewall: choose exactly one.');
    if (rule.windowMinutes === undefined || rule.windowMinutes === null)
      issue('windowMinutes', 'A silence rule needs a window: it fires after this many minutes without events.');
  }
  return issues;
}

/** `ruleKindIssues` as a zod refinement. */
function checkRuleKind(rule: RuleShape, ctx: z.RefinementCtx): void {
  for (const { path, message } of ruleKindIssues(rule)) ctx.addIssue({ code: 'custom', path: [path], message });
}

export const CreateAlertRuleBody = z
  .object({
    name: ruleFields.name,
    enabled: ruleFields.enabled.default(true),
    severity: ruleFields.severity,
    kind: ruleFields.kind,
    query: ruleFields.query.default(''),
    threshold: ruleFields.threshold.optional(),
    windowMinutes: ruleFields.windowMinutes.optional(),
    groupBy: ruleFields.groupBy.default([]),
    sourceId: ruleFields.sourceId.optional(),
    firewallId: ruleFields.firewallId.optional(),
    titleTemplate: ruleFields.titleTemplate.optional(),
    renotifyMinutes: ruleFields.renotifyMinutes.optional(),
    autoResolveMinutes: ruleFields.autoResolveMinutes.optional(),
    channels: ruleFields.channels.default([]),
  })
  .strict()
  .superRefine(checkRuleKind)
  .meta({ id: 'CreateAlertRuleBody' });
export type CreateAlertRuleBody = z.input<typeof CreateAlertRuleBody>;

/** Any subset of a rule's fields; the kind's needs are checked on the rule as it would be after the change. */
export const UpdateAlertRuleBody = z
  .object({
    name: ruleFields.name.optional(),
    enabled: ruleFields.enabled.optional(),
    severity: ruleFields.severity.optional(),
    kind: ruleFields.kind.optional(),
    query: ruleFields.query.optional(),
    threshold: ruleFields.threshold.optional(),
    windowMinutes: ruleFields.windowMinutes.optional(),
    groupBy: ruleFields.groupBy.optional(),
    sourceId: ruleFields.sourceId.optional(),
    firewallId: ruleFields.firewallId.optional(),
    titleTemplate: ruleFields.titleTemplate.optional(),
    renotifyMinutes: ruleFields.renotifyMinutes.optional(),
    autoResolveMinutes: ruleFields.autoResolveMinutes.optional(),
    channels: ruleFields.channels.optional(),
  })
  .strict()
  .meta({ id: 'UpdateAlertRuleBody' });
export type UpdateAlertRuleBody = z.input<typeof UpdateAlertRuleBody>;

export const Person = z.object({ id: Id.nullable(), name: z.string().nullable() });

export const AlertRule = z
  .object({
    id: Id,
    spaceId: Id,
    name: z.string(),
    enabled: z.boolean(),
    severity: Severity,
    kind: AlertRuleKind,
    query: z.string(),
    threshold: z.number().int().nullable(),
    windowMinutes: z.number().int().nullable(),
    groupBy: z.array(AlertGroupField),
    sourceId: Id.nullable(),
    firewallId: Id.nullable(),
    titleTemplate: z.string().nullable(),
    renotifyMinutes: z.number().int().nullable(),
    autoResolveMinutes: z.number().int().nullable(),
    channels: z.array(Channel),
    createdBy: Person,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    /** When the rule last opened or added to an alert. */
    lastFiredAt: Timestamp.nullable(),
    /** Alerts of this rule that are open or acknowledged. */
    activeAlerts: z.number().int(),
  })
  .meta({ id: 'AlertRule' });
export type AlertRule = z.infer<typeof AlertRule>;
export const AlertRuleList = z.object({ items: z.array(AlertRule) }).meta({ id: 'AlertRuleList' });

export const AlertRuleParams = SpaceParams.extend({ id: Id });

/** A rule tried against stored events before it is saved: the rule's fields, and how far back to look. */
export const AlertRulePreviewBody = z
  .object({
    kind: ruleFields.kind,
    query: ruleFields.query.default(''),
    threshold: ruleFields.threshold.optional(),
    windowMinutes: ruleFields.windowMinutes.optional(),
    groupBy: ruleFields.groupBy.default([]),
    sourceId: ruleFields.sourceId.optional(),
    firewallId: ruleFields.firewallId.optional(),
    titleTemplate: ruleFields.titleTemplate.optional(),
    hours: z.number().int().min(1).max(168, 'Look back at most 168 hours (7 days).').default(24),
  })
  .strict()
  .superRefine(checkRuleKind)
  .meta({ id: 'AlertRulePreviewBody' });
export type AlertRulePreviewBody = z.input<typeof AlertRulePreviewBody>;

/** One group the preview would have alerted on. */
export const PreviewGroup = z.object({
  groupKey: z.string(),
  group: z.record(z.string(), z.string()),
  title: z.string(),
  /** Times the rule would have fired for it (a new alert, or an evaluation that added to it). */
  firings: z.number().int(),
  events: z.number().int(),
  firstSeen: Timestamp,
  lastSeen: Timestamp,
});
export const AlertRulePreview = z
  .object({
    from: Timestamp,
    to: Timestamp,
    /** Times it would have fired, all groups together. */
    firings: z.number().int(),
    /** Alerts it would have opened (one per group). */
    alerts: z.number().int(),
    groups: z.array(PreviewGroup),
    /** The event log query that shows the matching events. */
    eventQuery: z.string(),
  })
  .meta({ id: 'AlertRulePreview' });
export type AlertRulePreview = z.infer<typeof AlertRulePreview>;

/** One alert: a rule firing for one group, deduplicated while it is not resolved. */
export const Alert = z
  .object({
    id: Id,
    spaceId: Id,
    ruleId: Id.nullable(),
    ruleName: z.string(),
    kind: AlertRuleKind,
    severity: Severity,
    title: z.string(),
    groupKey: z.string(),
    group: z.record(z.string(), z.string()),
    status: AlertStatus,
    assignee: Person.nullable(),
    snoozedUntil: Timestamp.nullable(),
    /** Matching events so far. */
    count: z.number().int(),
    firstSeen: Timestamp,
    lastSeen: Timestamp,
    /** Set when every event of the alert came from one firewall: it is then a WAF alert. */
    firewallId: Id.nullable(),
    /** The event log query that shows the matching events. */
    eventQuery: z.string(),
    resolvedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Alert' });
export type Alert = z.infer<typeof Alert>;

/** Counts of alerts by severity. */
export const AlertSeverityCounts = z
  .object({ critical: z.number(), high: z.number(), medium: z.number(), low: z.number(), info: z.number() })
  .meta({ id: 'AlertSeverityCounts' });

export const AlertList = z
  .object({
    items: z.array(Alert),
    nextCursor: z.string().nullable(),
    /** The filtered alerts by severity, whatever the severity filter. */
    counts: AlertSeverityCounts,
  })
  .meta({ id: 'AlertList' });
export type AlertList = z.infer<typeof AlertList>;

/** `me` and `none` stand for the caller and for unassigned alerts. */
const AssigneeFilter = z.union([Id, z.literal('me'), z.literal('none')]);

export const AlertQuery = z.object({
  /** Comma-separated: `open,acknowledged`. */
  status: csv(alertStatuses),
  severity: csv(severities),
  ruleId: Id.optional(),
  assignee: AssigneeFilter.optional(),
  /** Words of the title or group. */
  q: z.string().trim().max(200).optional(),
  cursor: Cursor.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AlertQuery = z.input<typeof AlertQuery>;

export const AlertParams = SpaceParams.extend({ id: Id });

const Reason = z.string().trim().max(alertLimits.reasonLength, `Use at most ${alertLimits.reasonLength} characters.`);

/** A triage change: any of status, assignee and snooze, with why. Snoozing acknowledges until the time passes. */
/** What one triage change may set: status, assignee, snooze, and why. */
const triageChange = {
  status: AlertStatus.optional(),
  assigneeId: Id.nullable().optional(),
  snoozedUntil: Timestamp.nullable().optional(),
  reason: Reason.optional(),
};

/** A triage change must change something. */
const changesSomething: [
  (body: { status?: unknown; assigneeId?: unknown; snoozedUntil?: unknown }) => boolean,
  { message: string; path: string[] },
] = [
  (body) => body.status !== undefined || body.assigneeId !== undefined || body.snoozedUntil !== undefined,
  { message: 'Change the status, the assignee or the snooze.', path: ['status'] },
];

export const UpdateAlertBody = z
  .object(triageChange)
  .strict()
  .refine(...changesSomething)
  .meta({ id: 'UpdateAlertBody' });
export type UpdateAlertBody = z.input<typeof UpdateAlertBody>;

export const BulkAlertBody = z
  .object({
    ids: z
      .array(Id)
      .min(1, 'Select at least one alert.')
      .max(alertLimits.bulkIds, `Select at most ${alertLimits.bulkIds} alerts at a time.`),
    ...triageChange,
  })
  .strict()
  .refine(...changesSomething)
  .meta({ id: 'BulkAlertBody' });
export type BulkAlertBody = z.input<typeof BulkAlertBody>;
export const BulkAlertAnswer = z.object({ updated: z.number().int(), items: z.array(Alert) }).meta({
  id: 'BulkAlertAnswer',
});

export const NoteBody = z
  .object({
    body: z
      .string()
      .trim()
      .min(1, 'Write the note.')
      .max(alertLimits.noteLength, `Use at most ${alertLimits.noteLength.toLocaleString('en')} characters.`),
  })
  .strict()
  .meta({ id: 'NoteBody' });

/** "Do not alert on this group for N days": a suppression of the alert's rule and group, with why. */
export const SuppressBody = z
  .object({
    days: z
      .number()
      .int()
      .min(1, 'Suppress for at least one day.')
      .max(alertLimits.suppressDays, `Suppress for at most ${alertLimits.suppressDays} days.`),
    reason: Reason.min(1, 'Say why this group should not alert.'),
  })
  .strict()
  .meta({ id: 'SuppressBody' });

/** One decision of the shared triage record (alerts here, vulnerability findings later): who, when, what, why, until, scope. */
export const TriageEntry = z
  .object({
    id: Id,
    at: Timestamp,
    actor: Person,
    decision: z.string(),
    reason: z.string().nullable(),
    until: Timestamp.nullable(),
    scope: z.record(z.string(), z.string()).nullable(),
    change: z.record(z.string(), z.unknown()).nullable(),
    /** A note's Markdown. */
    note: z.string().nullable(),
    revokedAt: Timestamp.nullable(),
  })
  .meta({ id: 'TriageEntry' });
export type TriageEntry = z.infer<typeof TriageEntry>;

/** A suppression of a rule's group: a triage decision with its scope and expiry. */
export const Suppression = TriageEntry.meta({ id: 'Suppression' });
export const SuppressionList = z.object({ items: z.array(Suppression) }).meta({ id: 'SuppressionList' });
export const SuppressionParams = AlertRuleParams.extend({ suppressionId: Id });

/** One try of one delivery. */
export const DeliveryAttempt = z.object({
  attempt: z.number().int(),
  at: Timestamp,
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});

/** A notification to one channel, retried from the queue until delivered or given up. */
export const Delivery = z
  .object({
    id: Id,
    alertId: Id.nullable(),
    ruleId: Id.nullable(),
    type: NotificationType,
    channel: z.enum(['email', 'webhook']),
    /** The webhook URL, or the addresses. */
    target: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.array(DeliveryAttempt),
    createdAt: Timestamp,
    deliveredAt: Timestamp.nullable(),
  })
  .meta({ id: 'Delivery' });
export type Delivery = z.infer<typeof Delivery>;

/** One alert with its timeline, kept matching events (newest first) and notifications. */
export const AlertDetail = Alert.extend({
  timeline: z.array(TriageEntry),
  events: z.array(EventSummary),
  /** Matching events kept as links (at most 1000); `count` goes on past them. */
  eventsKept: z.number().int(),
  deliveries: z.array(Delivery),
  /** The rule's channels' kinds, so the screen can say where notifications go. */
  rule: AlertRule.nullable(),
}).meta({ id: 'AlertDetail' });
export type AlertDetail = z.infer<typeof AlertDetail>;

/** `POST .../alert-rules/{id}/test`: a test notification to each of the rule's channels, sent at once. */
export const ChannelTestResult = z
  .object({
    results: z.array(
      z.object({
        channel: z.enum(['email', 'webhook']),
        target: z.string(),
        ok: z.boolean(),
        statusCode: z.number().int().nullable(),
        message: z.string(),
      }),
    ),
  })
  .meta({ id: 'ChannelTestResult' });

/** The webhook body (PRODUCT.md §5): signed with `X-Spaceguard-Signature: sha256=<hex HMAC of "<timestamp>.<body>">`. */
export const WebhookPayload = z
  .object({
    id: z.string(),
    type: NotificationType,
    alert: z.object({
      id: z.string(),
      title: z.string(),
      severity: Severity,
      status: AlertStatus,
      count: z.number().int(),
      ruleId: z.string().nullable(),
      groupKey: z.string(),
      url: z.string(),
    }),
    space: z.object({ id: Id, name: z.string() }),
  })
  .meta({ id: 'WebhookPayload' });
export type WebhookPayload = z.infer<typeof WebhookPayload>;

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
