import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { AlertGroupField } from '../../../contract/alert-rules.ts';
import { alertRuleKinds, alertStatuses } from '../../../contract/constants/alerts.ts';
import { severities } from '../../../contract/constants/events.ts';
import { oneOf } from './checks.ts';
import { firewalls } from './firewalls.ts';
import { sources } from './sources.ts';
import { spaces } from './spaces.ts';
import { users } from './users.ts';

/** A channel as stored: a webhook keeps its secret (to sign with), which the API never answers. */
export type StoredChannel = { kind: 'email'; to: string[] } | { kind: 'webhook'; url: string; secret: string };

/** A detection rule of a space: what it matches, how it fires, whom it tells. */
export const alertRules = pgTable(
  'alert_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    severity: text('severity', { enum: severities }).notNull(),
    kind: text('kind', { enum: alertRuleKinds }).notNull(),
    query: text('query').notNull().default(''),
    threshold: integer('threshold'),
    windowMinutes: integer('window_minutes'),
    groupBy: jsonb('group_by').$type<AlertGroupField[]>().notNull().default([]),
    sourceId: uuid('source_id').references(() => sources.id, { onDelete: 'set null' }),
    firewallId: uuid('firewall_id').references(() => firewalls.id, { onDelete: 'set null' }),
    titleTemplate: text('title_template'),
    renotifyMinutes: integer('renotify_minutes'),
    autoResolveMinutes: integer('auto_resolve_minutes'),
    channels: jsonb('channels').$type<StoredChannel[]>().notNull().default([]),
    /** Threshold and silence rules: the end of the last window evaluated (a restart catches up from here). */
    evaluatedUntil: timestamp('evaluated_until', { withTimezone: true }),
    lastFiredAt: timestamp('last_fired_at', { withTimezone: true }),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('alert_rules_space_name_idx').on(t.spaceId, sql`lower(${t.name})`),
    index('alert_rules_enabled_idx').on(t.spaceId, t.kind).where(sql`${t.enabled}`),
    check('alert_rules_kind_check', oneOf(t.kind, alertRuleKinds)),
    check('alert_rules_severity_check', oneOf(t.severity, severities)),
  ],
);
export type AlertRuleRow = typeof alertRules.$inferSelect;

/**
 * An alert: one rule firing for one group. While it is not resolved, further firings of the same rule and group add
 * to it (the partial unique index), so an attack is one alert, not thousands.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id').references(() => alertRules.id, { onDelete: 'set null' }),
    ruleName: text('rule_name').notNull(),
    kind: text('kind', { enum: alertRuleKinds }).notNull(),
    severity: text('severity', { enum: severities }).notNull(),
    title: text('title').notNull(),
    groupKey: text('group_key').notNull().default(''),
    groupValues: jsonb('group_values').$type<Record<string, string>>().notNull().default({}),
    status: text('status', { enum: alertStatuses }).notNull().default('open'),
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    snoozedUntil: timestamp('snoozed_until', { withTimezone: true }),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
    /** Matching events kept as links in alert_events (at most alertLimits.keptEvents). */
    kept: integer('kept').notNull().default(0),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
    /** Threshold alerts: events up to this time are counted. */
    coveredUntil: timestamp('covered_until', { withTimezone: true }),
    /** The single firewall every event came from, if any: a WAF alert. */
    firewallId: uuid('firewall_id').references(() => firewalls.id, { onDelete: 'set null' }),
    /** Once events from a second firewall (or none) arrive, the alert is no longer a single firewall's. */
    mixedFirewalls: boolean('mixed_firewalls').notNull().default(false),
    eventQuery: text('event_query').notNull().default(''),
    lastNotifiedAt: timestamp('last_notified_at', { withTimezone: true }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('alerts_active_group_idx')
      .on(t.ruleId, t.groupKey)
      .where(sql`${t.status} <> 'resolved' and ${t.ruleId} is not null`),
    // Newest first as `order by … desc` reads them: DESC is NULLS FIRST in PostgreSQL, drizzle's desc() alone is not.
    index('alerts_space_last_seen_idx').on(t.spaceId, t.lastSeen.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('alerts_space_status_idx').on(t.spaceId, t.status, t.severity),
    index('alerts_snoozed_idx').on(t.snoozedUntil).where(sql`${t.snoozedUntil} is not null`),
    check('alerts_status_check', oneOf(t.status, alertStatuses)),
    check('alerts_count_check', sql`${t.count} >= 0`),
  ],
);
export type AlertRow = typeof alerts.$inferSelect;

/** The matching events of an alert, as links to the event log (the events themselves stay where they are). */
export const alertEvents = pgTable(
  'alert_events',
  {
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    eventTime: timestamp('event_time', { withTimezone: true }).notNull(),
    eventId: uuid('event_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.alertId, t.eventTime, t.eventId] })],
);
