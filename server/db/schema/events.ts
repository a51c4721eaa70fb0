import { sql } from 'drizzle-orm';
import { char, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { eventActions, severities } from '../../../contract/constants/events.ts';
import { sources } from './sources.ts';
import { spaces } from './spaces.ts';

/** Security events, the large table: one normalised request or log line, with the record as received. */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sourceId: uuid('source_id')
      .notNull()
      .references(() => sources.id, { onDelete: 'cascade' }),
    time: timestamp('time', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    dedupKey: text('dedup_key'),
    // Text rather than inet: PGlite and every PostgreSQL take it, and a bad address never fails a batch.
    ip: text('ip'),
    country: char('country', { length: 2 }),
    method: text('method'),
    host: text('host'),
    path: text('path'),
    status: integer('status'),
    action: text('action', { enum: eventActions }).notNull(),
    severity: text('severity', { enum: severities }).notNull(),
    ruleIds: integer('rule_ids').array().notNull().default(sql`'{}'::integer[]`),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    message: text('message'),
    userAgent: text('user_agent'),
    firewallId: uuid('firewall_id'),
    raw: jsonb('raw').$type<unknown>().notNull(),
  },
  (t) => [
    // The event log's order exactly (time, then id, newest first; DESC means NULLS FIRST in SQL), so a page is read
    // off the index whatever the range;
    // action last so the histogram's counts come from the index alone.
    index('events_space_time_id_idx').on(t.spaceId, t.time.desc().nullsFirst(), t.id.desc().nullsFirst(), t.action),
    // A firewall's events (`firewall:<id>`, the firewall screens' counts) in the same order; partial, since most
    // events come from log sources and have no firewall.
    index('events_space_firewall_time_idx')
      .on(t.spaceId, t.firewallId, t.time.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.firewallId} is not null`),
    index('events_source_received_idx').on(t.sourceId, t.receivedAt.desc()),
    // `tag:` and `rule:` filters (the overview links into the event log with them) read these instead of every row.
    index('events_tags_idx').using('gin', t.tags),
    index('events_rule_ids_idx').using('gin', t.ruleIds),
    uniqueIndex('events_source_dedup_idx').on(t.sourceId, t.dedupKey).where(sql`${t.dedupKey} is not null`),
  ],
);
export type EventRow = typeof events.$inferSelect;
export type NewEventRow = typeof events.$inferInsert;
