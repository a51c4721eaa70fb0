/**
 * The vulnerability reference library (docs/product.md §3 and §7): OSV records (schema 1.x) as the import
 * validates them, the library's list query, and the list, detail and import answers the API and the islands share.
 */
import { z } from 'zod';
import { Cursor, Id, SpaceParams, Timestamp } from './common.ts';
import { vulnSeverities } from './constants/vulns.ts';

/**
 * An RFC 3339 time as OSV writes it (`2024-03-01T10:00:00Z`; fractions of any length and offsets allowed), of any
 * year: data sets write what their tooling writes, such as Go's zero time `0001-01-01T00:00:00Z` for a time they do
 * not know (the library reads that as unknown). Only a time an offset pushes past 9999 is refused: nothing can
 * store it. Not the 1970–2200 rule of the times people type (`Timestamp`): that one is for inputs, not the world's data.
 */
const OsvTime = z.iso
  .datetime({ offset: true, message: 'Use an RFC 3339 time such as 2024-03-01T10:00:00Z.' })
  // A text that is no time at all is named by the rule above alone.
  .refine((value) => !(Date.parse(value) >= Date.UTC(10_000, 0, 1)), 'Use a time before the year 10000.');

/** A time of a record as the library answers it (RFC 3339, any year: the record's own). */
const OsvTimestamp = z.iso.datetime({ offset: true });

const text = (max: number, what: string) =>
  z.string(`Give ${what} as text.`).max(max, `Use at most ${max} characters.`);

/** OSV range events: exactly one of introduced, fixed, last_affected, limit per event. */
const OsvEvent = z
  .looseObject({
    introduced: text(200, 'a version').optional(),
    fixed: text(200, 'a version').optional(),
    last_affected: text(200, 'a version').optional(),
    limit: text(200, 'a version').optional(),
  })
  .refine(
    (event) =>
      [event.introduced, event.fixed, event.last_affected, event.limit].filter((v) => v !== undefined).length === 1,
    'Give exactly one of introduced, fixed, last_affected or limit.',
  );

export const OsvRange = z.looseObject({
  type: z.enum(['SEMVER', 'ECOSYSTEM', 'GIT'], 'Use SEMVER, ECOSYSTEM or GIT.'),
  repo: text(2_000, 'the repository').optional(),
  events: z.array(OsvEvent).min(1, 'Give at least one event.').max(10_000, 'Use at most 10000 events.'),
});
export type OsvRange = z.infer<typeof OsvRange>;

export const OsvSeverity = z.looseObject({
  type: text(40, 'the severity type').min(1, 'Name the severity type (CVSS_V3, CVSS_V4, …).'),
  score: text(500, 'the score or vector').min(1, 'Give the vector or score.'),
});

export const OsvAffected = z.looseObject({
  package: z
    .looseObject({
      ecosystem: text(100, 'the ecosystem').min(1, 'Name the ecosystem.'),
      name: text(500, 'the package name').min(1, 'Name the package.'),
      purl: text(1_000, 'the package URL').optional(),
    })
    .optional(),
  severity: z.array(OsvSeverity).max(20).nullish(),
  ranges: z.array(OsvRange).max(1_000, 'Use at most 1000 ranges.').optional(),
  versions: z.array(text(200, 'a version')).max(100_000, 'Use at most 100000 versions.').optional(),
  ecosystem_specific: z.record(z.string(), z.unknown()).optional(),
  database_specific: z.record(z.string(), z.unknown()).optional(),
});
export type OsvAffected = z.infer<typeof OsvAffected>;

/**
 * One OSV record, schema 1.x (https://ossf.github.io/osv-schema/): `id` and `modified` required, the rest as the
 * schema types them (`aliases`, `severity`, `affected` and `references` may be null, as the schema allows). Unknown
 * fields are kept (the record is stored whole).
 */
export const OsvRecord = z.looseObject({
  schema_version: z
    .string()
    .regex(/^1\.\d+(\.\d+)?$/, 'Spaceguard reads OSV schema 1.x.')
    .optional(),
  id: z
    .string('Give the record’s id.')
    .min(1, 'Give the record’s id.')
    .max(200, 'Use at most 200 characters.')
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._:+-]*$/,
      'Use an OSV id: letters, digits and . _ : + - (like GHSA-xxxx-xxxx-xxxx).',
    ),
  modified: OsvTime,
  published: OsvTime.optional(),
  withdrawn: OsvTime.optional(),
  aliases: z.array(text(200, 'an alias')).max(5_000).nullish(),
  upstream: z.array(text(200, 'an id')).max(5_000).optional(),
  related: z.array(text(200, 'an id')).max(5_000).optional(),
  summary: text(10_000, 'the summary').optional(),
  details: text(2_000_000, 'the details').optional(),
  severity: z.array(OsvSeverity).max(20).nullish(),
  affected: z.array(OsvAffected).max(20_000, 'Use at most 20000 affected entries.').nullish(),
  references: z
    .array(z.looseObject({ type: text(40, 'the reference type'), url: text(2_000, 'the address') }))
    .max(10_000)
    .nullish(),
  credits: z.array(z.looseObject({ name: text(500, 'the name') })).optional(),
  database_specific: z.record(z.string(), z.unknown()).optional(),
});
export type OsvRecord = z.infer<typeof OsvRecord>;

export const VulnSeverity = z.enum(vulnSeverities).meta({ id: 'VulnSeverity' });

/** The library's list query: text search, filters, cursor paging. Kept in the screen's URL as is. */
export const VulnRefQuery = z.object({
  /** An id, an alias (CVE-…), a package name or words of the summary. */
  q: z.string().trim().max(200, 'Use at most 200 characters.').optional(),
  ecosystem: z.string().trim().max(100, 'Use at most 100 characters.').optional(),
  severity: VulnSeverity.optional(),
  modifiedFrom: z.iso.date('Use a date such as 2024-03-01.').optional(),
  modifiedTo: z.iso.date('Use a date such as 2024-03-01.').optional(),
  cursor: Cursor.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type VulnRefQuery = z.infer<typeof VulnRefQuery>;

/** One record as the list shows it. */
export const VulnRefSummary = z
  .object({
    id: z.string(),
    aliases: z.array(z.string()),
    summary: z.string(),
    ecosystems: z.array(z.string()),
    severity: VulnSeverity,
    score: z.number().nullable(),
    /** Null when the record does not know it (Go's zero time `0001-01-01T00:00:00Z`): the screen says "unknown". */
    modified: OsvTimestamp.nullable(),
    /** Null when the record gives none, or Go's zero time. */
    published: OsvTimestamp.nullable(),
    /** Null unless withdrawn (Go's zero time is no withdrawal). */
    withdrawn: OsvTimestamp.nullable(),
  })
  .meta({ id: 'VulnRefSummary' });
export type VulnRefSummary = z.infer<typeof VulnRefSummary>;

export const VulnRefList = z
  .object({ items: z.array(VulnRefSummary), nextCursor: z.string().nullable() })
  .meta({ id: 'VulnRefList' });
export type VulnRefList = z.infer<typeof VulnRefList>;

/** One labelled part of a CVSS vector: `AV` → Attack Vector: Network. */
export const CvssMetric = z.object({ key: z.string(), name: z.string(), value: z.string(), valueName: z.string() });

/** One severity entry of the record, scored when it is a CVSS v3.x or v4 vector. */
export const ScoredSeverity = z
  .object({
    type: z.string(),
    vector: z.string(),
    /** `3.0`, `3.1`, `4.0`; null for what is not a CVSS v3/v4 vector. */
    version: z.string().nullable(),
    score: z.number().nullable(),
    rating: VulnSeverity,
    metrics: z.array(CvssMetric),
    /** Why the entry was not scored (an unknown metric value, a version the library does not score). */
    problem: z.string().nullable(),
  })
  .meta({ id: 'ScoredSeverity' });
export type ScoredSeverity = z.infer<typeof ScoredSeverity>;

export const AffectedView = z.object({
  ecosystem: z.string(),
  name: z.string(),
  purl: z.string().nullable(),
  /** Whether Spaceguard orders versions of this ecosystem (only those are matched by assessments). */
  matched: z.boolean(),
  /** Each range in words: "from 2.0.0 before 2.3.1", "every version before 1.4.2". */
  ranges: z.array(z.object({ type: z.string(), repo: z.string().nullable(), words: z.array(z.string()) })),
  versions: z.array(z.string()),
  severity: z.string().nullable(),
});
export type AffectedView = z.infer<typeof AffectedView>;

/** One record whole: the list's fields, its details (Markdown), scored severities, affected packages, references. */
export const VulnRefDetail = VulnRefSummary.extend({
  details: z.string(),
  /** Where the record's severity came from: a CVSS vector, the ecosystem's own word, or nothing. */
  severitySource: z.enum(['cvss', 'ecosystem', 'none']),
  severities: z.array(ScoredSeverity),
  affected: z.array(AffectedView),
  references: z.array(z.object({ type: z.string(), url: z.string() })),
  related: z.array(z.string()),
  importedAt: Timestamp,
}).meta({ id: 'VulnRefDetail' });
export type VulnRefDetail = z.infer<typeof VulnRefDetail>;

/** Path of one record: OSV ids carry `-`, `:` and `.`, so the client encodes them (encodeURIComponent). */
export const VulnRefParams = SpaceParams.extend({ id: z.string().min(1).max(200) });
export const VulnImportParams = SpaceParams.extend({ id: Id });

export const vulnImportStatuses = ['queued', 'running', 'done', 'failed'] as const;
export const VulnImportStatus = z.enum(vulnImportStatuses);
export type VulnImportStatus = z.infer<typeof VulnImportStatus>;

/** A file (or array item, `[3]`) the import refused, with the reason: `modified: Use an RFC 3339 time …`. */
export const RefusedFile = z.object({ file: z.string(), reason: z.string() });
export type RefusedFile = z.infer<typeof RefusedFile>;

/**
 * One import and its progress: `filesRead` of `filesTotal` (the zip's central directory, or the array's length).
 * Every record read lands in exactly one of imported, updated, unchanged, withdrawn (stored and withdrawn) or
 * refused.
 */
export const VulnImport = z
  .object({
    id: Id,
    status: VulnImportStatus,
    fileName: z.string().nullable(),
    contentType: z.string(),
    bytes: z.number(),
    filesTotal: z.number(),
    filesRead: z.number(),
    imported: z.number(),
    updated: z.number(),
    unchanged: z.number(),
    withdrawn: z.number(),
    refused: z.array(RefusedFile),
    refusedCount: z.number(),
    error: z.string().nullable(),
    startedByName: z.string().nullable(),
    createdAt: Timestamp,
    finishedAt: Timestamp.nullable(),
  })
  .meta({ id: 'VulnImport' });
export type VulnImport = z.infer<typeof VulnImport>;

export const VulnImportList = z.object({ items: z.array(VulnImport) }).meta({ id: 'VulnImportList' });
export type VulnImportList = z.infer<typeof VulnImportList>;

/** The import's query: the uploaded file's name, for the imports list and the refused files (the body is the file). */
export const ImportQuery = z.object({
  fileName: z
    .string()
    .max(255, 'Use at most 255 characters.')
    .refine(
      (name) => ![...name].some((ch) => ch.charCodeAt(0) < 32 || ch === '\u007f' || ch === '/' || ch === '\\'),
      'Use a file name without control characters or slashes.',
    )
    .optional(),
});
