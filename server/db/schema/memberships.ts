import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { roles } from '../../../contract/constants/roles.ts';
import { spaces } from './spaces.ts';
import { users } from './users.ts';

/** Who belongs to which space, with which role. */
export const memberships = pgTable(
  'memberships',
  {
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: roles }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.spaceId, t.userId] }), index('memberships_user_id_idx').on(t.userId)],
);
export type MembershipRow = typeof memberships.$inferSelect;
