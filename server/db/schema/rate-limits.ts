import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Fixed-window counters shared by every API instance (sign-in per account and per IP). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
});
