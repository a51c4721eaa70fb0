/**
 * Alerts and their triage (docs/product.md §3 and §5, docs/alerts.md): an alert is a rule firing for one group; the
 * list, its filters, the triage changes one alert or many take, notes and suppressions, and one alert's detail.
 */
import { z } from 'zod';
import { AlertRule, AlertRuleKind } from './alert-rules.ts';
import { Cursor, csv, Id, SpaceParams, Timestamp } from './common.ts';
import { alertLimits, alertStatuses } from './constants/alerts.ts';
import { severities } from './constants/events.ts';
import { EventSummary, Severity } from './events.ts';
import { Person } from './members.ts';
import { Delivery } from './notifications.ts';
import { TriageEntry } from './triage.ts';

export const AlertStatus = z.enum(alertStatuses).meta({ id: 'AlertStatus' });
export type AlertStatus = z.infer<typeof AlertStatus>;

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

/** What one triage change may set: status, assignee, snooze (acknowledged until the time passes), and why. */
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
