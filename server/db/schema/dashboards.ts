import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { DashboardModel } from '../../../contract/dashboards.ts';
import { spaces } from './spaces.ts';
import { users } from './users.ts';

/**
 * A dashboard of a space: its whole model (what export writes) as JSON, a version that each save
 * raises by one (a save based on an older one is refused), and whether it is the space's default (at most one).
 */
export const dashboards = pgTable(
  'dashboards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    model: jsonb('model').$type<DashboardModel>().notNull(),
    version: integer('version').notNull().default(1),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('dashboards_space_default_idx').on(t.spaceId).where(sql`${t.isDefault}`),
    index('dashboards_space_idx').on(t.spaceId),
  ],
);
export type DashboardRow = typeof dashboards.$inferSelect;
