import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  billingIntervals,
  cardBehaviours,
  invoiceKinds,
  invoiceStatuses,
  subscriptionStatuses,
} from '../../../contract/constants/billing.ts';
import { plans } from '../../../contract/constants/plans.ts';
import type { InvoiceLine } from '../../../contract/subscription.ts';
import { spaces } from './spaces.ts';

/**
 * A card as the billing provider keeps it: its token at the provider, brand and last four; never the
 * number. `behaviour` is the local test provider's: what a charge of this card does (from the test card's number).
 */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    providerToken: text('provider_token').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    behaviour: text('behaviour', { enum: cardBehaviours }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('payment_methods_space_idx').on(t.spaceId)],
);
export type PaymentMethodRow = typeof paymentMethods.$inferSelect;

/**
 * A space's subscription, at most one. `plan` mirrors `spaces.plan` (which the rest of the app reads; both change in
 * one transaction). A past-due subscription remembers when its renewal first failed and how many retries ran.
 */
export const subscriptions = pgTable('subscriptions', {
  spaceId: uuid('space_id')
    .primaryKey()
    .references(() => spaces.id, { onDelete: 'cascade' }),
  plan: text('plan', { enum: plans }).notNull(),
  interval: text('interval', { enum: billingIntervals }).notNull(),
  status: text('status', { enum: subscriptionStatuses }).notNull().default('active'),
  periodStart: timestamp('period_start', { withTimezone: true }),
  periodEnd: timestamp('period_end', { withTimezone: true }),
  scheduledPlan: text('scheduled_plan', { enum: plans }),
  scheduledInterval: text('scheduled_interval', { enum: billingIntervals }),
  paymentMethodId: uuid('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
  failedAt: timestamp('failed_at', { withTimezone: true }),
  retries: integer('retries').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
export type SubscriptionRow = typeof subscriptions.$inferSelect;

/**
 * An invoice: numbered per space (1, 2, … shown as INV-0001, never reused), its lines in cents, what it paid for.
 * One per (space, period start, kind), so a renewal run twice cannot charge twice.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    kind: text('kind', { enum: invoiceKinds }).notNull(),
    plan: text('plan', { enum: plans }).notNull(),
    interval: text('interval', { enum: billingIntervals }).notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
    totalCents: integer('total_cents').notNull(),
    status: text('status', { enum: invoiceStatuses }).notNull(),
    failureMessage: text('failure_message'),
    providerPaymentId: text('provider_payment_id'),
    providerRefundId: text('provider_refund_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('invoices_space_number_idx').on(t.spaceId, t.number),
    uniqueIndex('invoices_space_period_kind_idx').on(t.spaceId, t.periodStart, t.kind),
  ],
);
export type InvoiceRow = typeof invoices.$inferSelect;

/** A checkout's answer under its Idempotency-Key: the same key and body answer the same, without a second charge. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    answer: jsonb('answer').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.spaceId, t.key] })],
);
