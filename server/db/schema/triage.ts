import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { spaces } from './spaces.ts';
import { users } from './users.ts';

/**
 * The one triage record (docs/style.md, "one triage record"): every decision about an alert, an alert rule's group or a
 * vulnerability finding, with who made it, when, why, until when and on what scope. An alert's timeline and a
 * rule's suppressions are read from here; vulnerability findings reuse it.
 */
export const triageRecords = pgTable(
  'triage_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    /** What the decision is about: `alert`, `alert_rule`, `finding`. */
    subjectType: text('subject_type').notNull(),
    subjectId: uuid('subject_id').notNull(),
    /** `acknowledged`, `resolved`, `suppressed`, `noted`… (server/services/triage/decisions.ts). */
    decision: text('decision').notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** The person, or `Spaceguard` for the system's own decisions (auto-resolve, snooze expiry). */
    actorName: text('actor_name'),
    reason: text('reason'),
    until: timestamp('until', { withTimezone: true }),
    scope: jsonb('scope').$type<Record<string, string>>(),
    change: jsonb('change').$type<Record<string, unknown>>(),
    note: text('note'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedById: uuid('revoked_by_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** Insertion order: decisions of one change share their time and read back in the order they were made. */
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
  },
  (t) => [
    index('triage_subject_idx').on(t.subjectType, t.subjectId, t.at, t.seq),
    index('triage_active_idx')
      .on(t.spaceId, t.subjectType, t.decision, t.until)
      .where(sql`${t.revokedAt} is null and ${t.until} is not null`),
  ],
);
export type TriageRow = typeof triageRecords.$inferSelect;
