import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sources } from './sources.ts';

/** Answers of ingest batches sent with an Idempotency-Key, so a retry gets the same answer and inserts nothing. */
export const ingestBatches = pgTable(
  'ingest_batches',
  {
    sourceId: uuid('source_id')
      .notNull()
      .references(() => sources.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    status: integer('status').notNull().default(200),
    response: jsonb('response').$type<unknown>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.idempotencyKey] })],
);

/** Recent refused lines per source, for the source page and its error count (kept as long as events). */
export const ingestErrors = pgTable(
  'ingest_errors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sourceId: uuid('source_id')
      .notNull()
      .references(() => sources.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    message: text('message').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('ingest_errors_source_created_idx').on(t.sourceId, t.createdAt.desc())],
);
