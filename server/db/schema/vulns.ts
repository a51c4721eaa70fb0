import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { firewalls } from './firewalls.ts';
import { spaces } from './spaces.ts';
import { users } from './users.ts';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * A record of a space's vulnerability library: one OSV record (schema 1.x) as imported, keyed by its id.
 * The record itself is kept whole in `record`; the columns are what search, filters and the list read.
 */
export const vulnRefs = pgTable(
  'vuln_refs',
  {
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    aliases: text('aliases').array().notNull().default(sql`'{}'::text[]`),
    summary: text('summary').notNull().default(''),
    modified: timestamp('modified', { withTimezone: true }).notNull(),
    published: timestamp('published', { withTimezone: true }),
    withdrawn: timestamp('withdrawn', { withTimezone: true }),
    /** `critical` … `low`, `none` or `unknown` (from the CVSS vector, else the ecosystem's own severity). */
    severity: text('severity').notNull().default('unknown'),
    score: real('score'),
    /** The ecosystems and the `ecosystem:normalised name` keys of the record's affected packages. */
    ecosystems: text('ecosystems').array().notNull().default(sql`'{}'::text[]`),
    packages: text('packages').array().notNull().default(sql`'{}'::text[]`),
    /** Lower-cased id, aliases, summary and package names, for the library's text search. */
    searchText: text('search_text').notNull().default(''),
    record: jsonb('record').$type<Record<string, unknown>>().notNull(),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.spaceId, t.id] }),
    index('vuln_refs_modified_idx').on(t.spaceId, t.modified.desc(), t.id),
    index('vuln_refs_packages_idx').using('gin', t.packages),
    index('vuln_refs_aliases_idx').using('gin', t.aliases),
  ],
);
export type VulnRefRow = typeof vulnRefs.$inferSelect;

/**
 * One affected entry of a record, for matching: the package key (`ecosystem:normalised name`) and the entry's
 * ranges and explicit versions, as OSV writes them. Withdrawn records have none.
 */
export const vulnAffected = pgTable(
  'vuln_affected',
  {
    spaceId: uuid('space_id').notNull(),
    refId: text('ref_id').notNull(),
    seq: integer('seq').notNull(),
    ecosystem: text('ecosystem').notNull(),
    packageKey: text('package_key').notNull(),
    packageName: text('package_name').notNull(),
    ranges: jsonb('ranges').$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    versions: text('versions').array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [
    primaryKey({ columns: [t.spaceId, t.refId, t.seq] }),
    foreignKey({ columns: [t.spaceId, t.refId], foreignColumns: [vulnRefs.spaceId, vulnRefs.id] }).onDelete('cascade'),
    index('vuln_affected_package_idx').on(t.spaceId, t.packageKey),
  ],
);
export type VulnAffectedRow = typeof vulnAffected.$inferSelect;

/** An import of OSV records (a JSON body or a zip), run by a `vulns.import` job; its counts are the progress. */
export const vulnImports = pgTable(
  'vuln_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    /** The `vulns.import` job (jobs are pruned after a while, so no foreign key). */
    jobId: bigint('job_id', { mode: 'number' }),
    /** `queued`, `running`, `done`, `failed`. */
    status: text('status').notNull().default('queued'),
    fileName: text('file_name'),
    contentType: text('content_type').notNull(),
    /** The upload, kept until the job has read it. */
    body: bytea('body'),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    filesTotal: integer('files_total').notNull().default(0),
    filesRead: integer('files_read').notNull().default(0),
    imported: integer('imported').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    withdrawn: integer('withdrawn').notNull().default(0),
    /** Files (or array items) refused, with the reason; at most the first 1 000 are kept, `refusedCount` counts all. */
    refused: jsonb('refused').$type<{ file: string; reason: string }[]>().notNull().default(sql`'[]'::jsonb`),
    refusedCount: integer('refused_count').notNull().default(0),
    error: text('error'),
    startedById: uuid('started_by_id').references(() => users.id, { onDelete: 'set null' }),
    startedByName: text('started_by_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('vuln_imports_space_idx').on(t.spaceId, t.createdAt.desc())],
);
export type VulnImportRow = typeof vulnImports.$inferSelect;

/** A component of an inventory: a package at a version, in an ecosystem. */
export type InventoryComponent = {
  purl: string | null;
  ecosystem: string;
  name: string;
  version: string;
};

/** An asset of a space: an application or a host, with its current software inventory. */
export const assets = pgTable(
  'assets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** `application` or `host`. */
    kind: text('kind').notNull(),
    environment: text('environment'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    /** The firewall in front of a web application (virtual patches go there). */
    firewallId: uuid('firewall_id').references(() => firewalls.id, { onDelete: 'set null' }),
    /** Bumped by every new inventory; the previous ones are in `asset_inventories`. */
    inventoryVersion: integer('inventory_version').notNull().default(1),
    inventorySource: text('inventory_source').notNull().default('manual'),
    /** What the SBOM said of itself: spec version, serial number, its tool, its main component. */
    sbom: jsonb('sbom').$type<Record<string, unknown>>(),
    lastAssessedAt: timestamp('last_assessed_at', { withTimezone: true }),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('assets_space_name_idx').on(t.spaceId, sql`lower(${t.name})`),
    check('assets_kind_check', sql`${t.kind} in ('application', 'host')`),
  ],
);
export type AssetRow = typeof assets.$inferSelect;

/** The current inventory of an asset, one row per distinct component. */
export const assetComponents = pgTable(
  'asset_components',
  {
    assetId: uuid('asset_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    /** `ecosystem:normalised name@version`: one row per component however often the SBOM listed it. */
    key: text('key').notNull(),
    purl: text('purl'),
    ecosystem: text('ecosystem').notNull(),
    name: text('name').notNull(),
    packageKey: text('package_key').notNull(),
    version: text('version').notNull(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.key] })],
);
export type AssetComponentRow = typeof assetComponents.$inferSelect;

/** A previous inventory of an asset, kept whole when a new SBOM or list replaces it. */
export const assetInventories = pgTable(
  'asset_inventories',
  {
    assetId: uuid('asset_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    source: text('source').notNull(),
    sbom: jsonb('sbom').$type<Record<string, unknown>>(),
    components: jsonb('components').$type<InventoryComponent[]>().notNull(),
    replacedAt: timestamp('replaced_at', { withTimezone: true }).notNull(),
    replacedById: uuid('replaced_by_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.version] })],
);

/** An assessment: one matching of assets' inventories against the library, and the open counts it left. */
export const assessments = pgTable(
  'assessments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    /** The one asset assessed, or null for all of them. */
    assetId: uuid('asset_id').references(() => assets.id, { onDelete: 'set null' }),
    /** `manual` or `import` (a library import re-assesses). */
    trigger: text('trigger').notNull(),
    assets: integer('assets').notNull().default(0),
    components: integer('components').notNull().default(0),
    findingsNew: integer('findings_new').notNull().default(0),
    findingsFixed: integer('findings_fixed').notNull().default(0),
    findingsReopened: integer('findings_reopened').notNull().default(0),
    /** Open findings of the whole space by severity once it finished: the trend's point. */
    openBySeverity: jsonb('open_by_severity').$type<Record<string, number>>().notNull(),
    durationMs: integer('duration_ms').notNull().default(0),
    startedById: uuid('started_by_id').references(() => users.id, { onDelete: 'set null' }),
    startedByName: text('started_by_name'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('assessments_space_at_idx').on(t.spaceId, t.at)],
);
export type AssessmentRow = typeof assessments.$inferSelect;

/**
 * A finding: a vulnerability of the library present in a component of an asset. Its status is the latest decision
 * (written to the triage record) or what assessments saw: `fixed` once no later assessment finds it.
 */
export const findings = pgTable(
  'findings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    assetId: uuid('asset_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    componentKey: text('component_key').notNull(),
    purl: text('purl'),
    ecosystem: text('ecosystem').notNull(),
    packageName: text('package_name').notNull(),
    version: text('version').notNull(),
    vulnId: text('vuln_id').notNull(),
    aliases: text('aliases').array().notNull().default(sql`'{}'::text[]`),
    summary: text('summary').notNull().default(''),
    severity: text('severity').notNull(),
    score: real('score'),
    fixedIn: text('fixed_in'),
    /** `open`, `not_affected`, `accepted`, `mitigated`, `fixed`. */
    status: text('status').notNull().default('open'),
    justification: text('justification'),
    reason: text('reason'),
    until: timestamp('until', { withTimezone: true }),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
    fixedAt: timestamp('fixed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('findings_identity_idx').on(t.assetId, t.componentKey, t.vulnId),
    index('findings_space_status_idx').on(t.spaceId, t.status, t.severity),
    index('findings_until_idx').on(t.until).where(sql`${t.status} = 'accepted' and ${t.until} is not null`),
    check('findings_status_check', sql`${t.status} in ('open', 'not_affected', 'accepted', 'mitigated', 'fixed')`),
  ],
);
export type FindingRow = typeof findings.$inferSelect;

/**
 * A virtual patch: a firewall change made for a finding (a custom rule, or a CRS rule group enabled). While it is in
 * the firewall's current version the finding is `mitigated`; a version without it reopens the finding.
 */
export const virtualPatches = pgTable(
  'virtual_patches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    findingId: uuid('finding_id')
      .notNull()
      .references(() => findings.id, { onDelete: 'cascade' }),
    firewallId: uuid('firewall_id')
      .notNull()
      .references(() => firewalls.id, { onDelete: 'cascade' }),
    /** `custom-rule` (its ModSecurity id in `ruleId`) or `crs-group` (its name in `group`). */
    kind: text('kind').notNull(),
    ruleId: integer('rule_id'),
    group: text('group'),
    description: text('description').notNull(),
    version: integer('version').notNull(),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    removedInVersion: integer('removed_in_version'),
  },
  (t) => [
    index('virtual_patches_firewall_idx').on(t.firewallId).where(sql`${t.removedAt} is null`),
    index('virtual_patches_finding_idx').on(t.findingId),
  ],
);
export type VirtualPatchRow = typeof virtualPatches.$inferSelect;
