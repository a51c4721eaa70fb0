import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { notificationTypes } from '../../../contract/constants/alerts.ts';
import { alertRules, alerts } from './alerts.ts';
import { oneOf } from './checks.ts';
import { spaces } from './spaces.ts';

/** One try of one delivery, kept for the delivery log. */
export type DeliveryAttemptRecord = {
  attempt: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
};

const deliveryStatuses = ['pending', 'delivered', 'failed'] as const;

/**
 * A notification to one channel: sent by a job (`alerts.deliver`, unique key per delivery) and retried with backoff,
 * so a restart loses none; its id is the `X-Spaceguard-Delivery` header, the same on every retry.
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    alertId: uuid('alert_id').references(() => alerts.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id').references(() => alertRules.id, { onDelete: 'set null' }),
    type: text('type', { enum: notificationTypes }).notNull(),
    channel: text('channel', { enum: ['email', 'webhook'] }).notNull(),
    /** The webhook URL or the addresses, as sent. */
    target: text('target').notNull(),
    /** The body as first built, so every retry sends the same bytes (apart from the timestamp header). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: deliveryStatuses }).notNull().default('pending'),
    attempts: jsonb('attempts').$type<DeliveryAttemptRecord[]>().notNull().default([]),
    attemptCount: integer('attempt_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('alert_deliveries_alert_idx').on(t.alertId, t.createdAt),
    index('alert_deliveries_space_idx').on(t.spaceId, t.createdAt),
    check('alert_deliveries_status_check', oneOf(t.status, deliveryStatuses)),
  ],
);
export type DeliveryRow = typeof alertDeliveries.$inferSelect;
