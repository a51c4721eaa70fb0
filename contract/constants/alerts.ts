/** Alert rules and alerts: the closed vocabularies and the bounds, plain values for schemas, server and islands. */

/** What makes a rule fire: any matching event, more than N in a window, or nothing from a source for a window. */
export const alertRuleKinds = ['match', 'threshold', 'silence'] as const;
export type AlertRuleKind = (typeof alertRuleKinds)[number];

/** Where an alert is in its triage. */
export const alertStatuses = ['open', 'acknowledged', 'resolved'] as const;
export type AlertStatus = (typeof alertStatuses)[number];

/** The event fields an alert may be grouped by (one alert per distinct combination). */
export const alertGroupFields = [
  'ip',
  'country',
  'host',
  'path',
  'method',
  'status',
  'action',
  'severity',
  'rule',
  'tag',
  'firewall',
  'source',
] as const;
export type AlertGroupField = (typeof alertGroupFields)[number];

/** What a notification says happened. */
export const notificationTypes = ['alert.opened', 'alert.updated', 'alert.resolved', 'test'] as const;
export type NotificationType = (typeof notificationTypes)[number];

/** Channel kinds a rule notifies. */
export const channelKinds = ['email', 'webhook'] as const;

/** Bounds of rules and triage. */
export const alertLimits = {
  nameLength: 120,
  queryLength: 2_000,
  titleLength: 200,
  groupFields: 3,
  channels: 10,
  emailsPerChannel: 20,
  /** Windows of threshold and silence rules: a minute to a week. */
  windowMinutes: { min: 1, max: 10_080 },
  threshold: { min: 0, max: 10_000_000 },
  /** Re-notify and auto-resolve: five minutes to 30 days. */
  repeatMinutes: { min: 5, max: 43_200 },
  noteLength: 20_000,
  reasonLength: 1_000,
  /** Matching events kept (as links) per alert; the count goes on past it and the event log query shows them all. */
  keptEvents: 1_000,
  /** A snooze or a suppression lasts at most 90 days. */
  snoozeDays: 90,
  suppressDays: 365,
  /** A threshold or silence rule catches up at most this far back after every process was down. */
  catchUpMinutes: 1_440,
  bulkIds: 200,
} as const;
