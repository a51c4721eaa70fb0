import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sourceKinds } from '../../../contract/constants/sources.ts';
import { spaces } from './spaces.ts';

/** A log source of a space: what its lines look like and the hashed token that may send them. */
export const sources = pgTable(
  'sources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind', { enum: sourceKinds }).notNull(),
    tokenHash: text('token_hash').notNull(),
    tokenPrefix: text('token_prefix').notNull(),
    retentionDays: integer('retention_days'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('sources_token_hash_idx').on(t.tokenHash),
    index('sources_space_idx').on(t.spaceId),
    // The key the events store's tables reference a source by (migration 0008), so they lead with space_id.
    uniqueIndex('sources_space_id_id_idx').on(t.spaceId, t.id),
  ],
);
export type SourceRow = typeof sources.$inferSelect;
