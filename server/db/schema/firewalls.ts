import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { connectorStates } from '../../../contract/constants/firewalls.ts';
import type { FirewallSettings } from '../../../contract/firewall-settings.ts';
import { sources } from './sources.ts';
import { spaces } from './spaces.ts';
import { users } from './users.ts';

/** A firewall of a space: its current settings, its newest version, its connector's token and last report. */
export const firewalls = pgTable(
  'firewalls',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    settings: jsonb('settings').$type<FirewallSettings>().notNull(),
    /** The newest version's number (its settings are `settings`). */
    version: integer('version').notNull(),
    tokenHash: text('token_hash').notNull(),
    tokenPrefix: text('token_prefix').notNull(),
    /** The log source (kind modsecurity) the connector's events are stored under; made on the first batch. */
    sourceId: uuid('source_id').references(() => sources.id, { onDelete: 'set null' }),
    connectorState: text('connector_state', { enum: connectorStates }).notNull().default('never'),
    appliedVersion: integer('applied_version'),
    /** The version the last failed report was about (the applied one keeps serving). */
    failedVersion: integer('failed_version'),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    connectorMessage: text('connector_message'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('firewalls_token_hash_idx').on(t.tokenHash), index('firewalls_space_idx').on(t.spaceId)],
);
export type FirewallRow = typeof firewalls.$inferSelect;

/** Every saved state of a firewall: the settings, the files they compiled to and their hash, who saved it and why. */
export const firewallVersions = pgTable(
  'firewall_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firewallId: uuid('firewall_id')
      .notNull()
      .references(() => firewalls.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    settings: jsonb('settings').$type<FirewallSettings>().notNull(),
    files: jsonb('files').$type<Record<string, string>>().notNull(),
    hash: text('hash').notNull(),
    /** When these files go stale by themselves (the first IP list entry to expire): a new version is compiled then. */
    staleAt: timestamp('stale_at', { withTimezone: true }),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name'),
    comment: text('comment'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('firewall_versions_firewall_version_idx').on(t.firewallId, t.version)],
);
export type FirewallVersionRow = typeof firewallVersions.$inferSelect;
