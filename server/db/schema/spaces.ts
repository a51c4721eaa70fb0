import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { plans } from '../../../contract/constants/plans.ts';

/** A workspace: one team or one customer. */
export const spaces = pgTable('spaces', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  timeZone: text('time_zone').notNull().default('UTC'),
  retentionDays: integer('retention_days').notNull().default(7),
  plan: text('plan', { enum: plans }).notNull().default('free'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
export type SpaceRow = typeof spaces.$inferSelect;
