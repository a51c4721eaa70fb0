import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The development outbox: mail kept in the database when no SMTP server is configured. */
export const outbox = pgTable('outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
