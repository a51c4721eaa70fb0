import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { spaces } from './spaces.ts';
import { users } from './users.ts';

/**
 * A named event log search of a space: the query and the time range as the screen keeps them,
 * either a relative range (`24h`) or an absolute `from`/`to`. Names are unique per space, ignoring case.
 */
export const savedSearches = pgTable(
  'saved_searches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    query: text('query').notNull().default(''),
    range: text('range', { enum: ['1h', '24h', '7d', '30d'] }),
    rangeFrom: timestamp('range_from', { withTimezone: true }),
    rangeTo: timestamp('range_to', { withTimezone: true }),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('saved_searches_space_name_idx').on(t.spaceId, sql`lower(${t.name})`),
    index('saved_searches_space_created_idx').on(t.spaceId, t.createdAt.desc()),
    check(
      'saved_searches_range_check',
      sql`(${t.range} is not null and ${t.rangeFrom} is null and ${t.rangeTo} is null) or (${t.range} is null and ${t.rangeFrom} is not null and ${t.rangeTo} is not null and ${t.rangeFrom} < ${t.rangeTo})`,
    ),
  ],
);
export type SavedSearchRow = typeof savedSearches.$inferSelect;
