/**
 * Alert rules (docs/product.md §5, docs/alerts.md): what a rule watches and when it fires, the preview of a rule
 * against stored events, and the suppressions of its groups. Queries are in the event query language
 * (contract/query/README.md); the server parses them and a 400 names the position.
 */
import { z } from 'zod';
import { hasControl, Id, SpaceParams, Timestamp } from './common.ts';
import { alertGroupFields, alertLimits, alertRuleKinds } from './constants/alerts.ts';
import { Severity } from './events.ts';
import { Person } from './members.ts';
import { Channel, ChannelInput } from './notifications.ts';
import { TriageEntry } from './triage.ts';

export const AlertRuleKind = z.enum(alertRuleKinds).meta({ id: 'AlertRuleKind' });
export const AlertGroupField = z.enum(alertGroupFields).meta({ id: 'AlertGroupField' });
export type AlertGroupField = z.infer<typeof AlertGroupField>;

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

/** A suppression of a rule's group: a triage decision with its scope and expiry. */
export const Suppression = TriageEntry.meta({ id: 'Suppression' });
export const SuppressionList = z.object({ items: z.array(Suppression) }).meta({ id: 'SuppressionList' });
export const SuppressionParams = AlertRuleParams.extend({ suppressionId: Id });
