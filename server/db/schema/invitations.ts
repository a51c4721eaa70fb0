import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { roles } from '../../../contract/constants/roles.ts';
import { spaces } from './spaces.ts';
import { users } from './users.ts';

/** Invitations by email with a role: single use, 7 days, token stored hashed. */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: roles }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  },
  (t) => [index('invitations_space_id_idx').on(t.spaceId), index('invitations_email_idx').on(t.email)],
);
export type InvitationRow = typeof invitations.$inferSelect;
