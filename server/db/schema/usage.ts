import { bigint, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { spaces } from './spaces.ts';

/** Events accepted and refused per space and calendar month (UTC), against the plan's monthly quota. */
export const eventUsage = pgTable(
  'event_usage',
  {
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    /** 'YYYY-MM' in UTC. */
    month: text('month').notNull(),
    accepted: bigint('accepted', { mode: 'number' }).notNull().default(0),
    refused: bigint('refused', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.spaceId, t.month] })],
);
