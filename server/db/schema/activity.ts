import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The audit log. No foreign keys: records outlive the users and spaces they mention. */
export const activity = pgTable(
  'activity',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id'),
    actorId: uuid('actor_id'),
    actorName: text('actor_name'),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    change: jsonb('change').$type<unknown>(),
  },
  (t) => [
    index('activity_space_created_idx').on(t.spaceId, t.createdAt.desc(), t.id.desc()),
    index('activity_actor_idx').on(t.actorId),
  ],
);
export type ActivityRow = typeof activity.$inferSelect;
