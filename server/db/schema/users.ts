import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Accounts; `activatedAt` is null until the activation link is used. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  colorMode: text('color_mode', { enum: ['light', 'dark', 'system'] })
    .notNull()
    .default('system'),
  pendingEmail: text('pending_email'),
  lastSpaceId: uuid('last_space_id'),
  activatedAt: timestamp('activated_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
export type User = typeof users.$inferSelect;
