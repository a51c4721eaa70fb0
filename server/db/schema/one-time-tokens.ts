import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Single-use mailed tokens (activation 24 h, reset 1 h, email change), stored hashed. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['activation', 'reset', 'email_change'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    data: jsonb('data').$type<Record<string, string>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('one_time_tokens_user_id_idx').on(t.userId)],
);
export type OneTimeTokenKind = (typeof oneTimeTokens.$inferSelect)['kind'];
