/**
 * Assessments, findings, their triage in VEX terms, the trend and virtual patches (docs/product.md §3 and §7):
 * the bodies and answers the API and the islands share.
 */
import { z } from 'zod';
import { Cursor, csv, hasControl, Id, SpaceParams, Timestamp } from './common.ts';
import {
  ecosystems,
  findingStatuses,
  triageableStatuses,
  vexJustifications,
  vulnLimits,
  vulnSeverities,
} from './constants/vulns.ts';
import { Person } from './members.ts';
import { TriageEntry } from './triage.ts';
import { RemedyPreview } from './waf.ts';

export const FindingStatus = z.enum(findingStatuses).meta({ id: 'FindingStatus' });
export const VulnSeverity = z.enum(vulnSeverities).meta({ id: 'VulnSeverity' });
export const VexJustification = z.enum(vexJustifications).meta({ id: 'VexJustification' });

/** Counts by severity (open findings, or an assessment's point of the trend). */
export const SeverityCounts = z
  .object({
    critical: z.number().int(),
    high: z.number().int(),
    medium: z.number().int(),
    low: z.number().int(),
    none: z.number().int(),
    unknown: z.number().int(),
  })
  .meta({ id: 'VulnSeverityCounts' });
export type SeverityCounts = z.infer<typeof SeverityCounts>;

/** `POST .../assessments`: one asset, or every asset of the space when absent. */
export const AssessBody = z.object({ assetId: Id.optional() }).strict().meta({ id: 'AssessBody' });

export const Assessment = z
  .object({
    id: Id,
    at: Timestamp,
    assetId: Id.nullable(),
    trigger: z.enum(['manual', 'import']),
    assets: z.number().int(),
    components: z.number().int(),
    findingsNew: z.number().int(),
    findingsFixed: z.number().int(),
    findingsReopened: z.number().int(),
    /** Open findings of the space by severity once it finished. */
    open: SeverityCounts,
    durationMs: z.number().int(),
    startedBy: Person,
    /**
     * Records in the space's vulnerability library when the assessment ran, answered by the run itself: with none,
     * nothing could be found, and "0 new" says nothing about the assets.
     */
    libraryRecords: z.number().int().optional(),
  })
  .meta({ id: 'Assessment' });
export type Assessment = z.infer<typeof Assessment>;

export const AssessmentList = z.object({ items: z.array(Assessment) }).meta({ id: 'AssessmentList' });

/** The open findings by severity after each assessment, oldest first (the trend chart's series). */
export const FindingTrend = z
  .object({ points: z.array(z.object({ at: Timestamp, open: SeverityCounts })) })
  .meta({ id: 'FindingTrend' });
export type FindingTrend = z.infer<typeof FindingTrend>;

/** The firewall change that mitigates a finding while it is in the firewall's current version. */
export const VirtualPatch = z
  .object({
    id: Id,
    firewallId: Id,
    firewallName: z.string(),
    kind: z.enum(['custom-rule', 'crs-group']),
    /** The custom rule's ModSecurity id. */
    ruleId: z.number().int().nullable(),
    /** The CRS rule group (file name) enabled. */
    group: z.string().nullable(),
    description: z.string(),
    /** The firewall version that brought it. */
    version: z.number().int(),
    /** The firewall's mode now: a patch blocks only in block mode. */
    firewallMode: z.enum(['off', 'detect', 'block']),
    createdAt: Timestamp,
    createdBy: Person,
    removedAt: Timestamp.nullable(),
    removedInVersion: z.number().int().nullable(),
  })
  .meta({ id: 'VirtualPatch' });
export type VirtualPatch = z.infer<typeof VirtualPatch>;

/** A finding: a vulnerability of the library in a component of an asset. */
export const Finding = z
  .object({
    id: Id,
    asset: z.object({ id: Id, name: z.string(), kind: z.enum(['application', 'host']) }),
    component: z.object({
      key: z.string(),
      purl: z.string().nullable(),
      ecosystem: z.string(),
      name: z.string(),
      version: z.string(),
    }),
    vulnId: z.string(),
    aliases: z.array(z.string()),
    summary: z.string(),
    severity: VulnSeverity,
    score: z.number().nullable(),
    /** The smallest version that fixes it above the installed one, in the ecosystem's order. */
    fixedIn: z.string().nullable(),
    status: FindingStatus,
    justification: VexJustification.nullable(),
    reason: z.string().nullable(),
    /** When a risk acceptance ends (the finding opens again). */
    until: Timestamp.nullable(),
    firstSeen: Timestamp,
    lastSeen: Timestamp,
    fixedAt: Timestamp.nullable(),
    updatedAt: Timestamp,
    virtualPatch: VirtualPatch.nullable(),
  })
  .meta({ id: 'Finding' });
export type Finding = z.infer<typeof Finding>;

export const FindingList = z
  .object({
    items: z.array(Finding),
    nextCursor: z.string().nullable(),
    /** The filtered findings by status and, of those open, by severity (whatever the status and severity filters). */
    counts: z.object({ status: z.record(FindingStatus, z.number().int()), open: SeverityCounts }),
  })
  .meta({ id: 'FindingList' });
export type FindingList = z.infer<typeof FindingList>;

export const FindingQuery = z.object({
  assetId: Id.optional(),
  /** Comma-separated: `open,accepted`. */
  status: csv(findingStatuses),
  severity: csv(vulnSeverities),
  ecosystem: csv(ecosystems),
  /** Words of the vulnerability id, an alias, the package or the summary. */
  q: z.string().trim().max(200).optional(),
  cursor: Cursor.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type FindingQuery = z.input<typeof FindingQuery>;

export const FindingParams = SpaceParams.extend({ id: Id });
export const AssetVexParams = SpaceParams.extend({ id: Id });

const Reason = z
  .string()
  .trim()
  .max(vulnLimits.reasonLength, `Use at most ${vulnLimits.reasonLength.toLocaleString('en')} characters.`)
  .refine((value) => !hasControl(value.replace(/\n/g, ' ')), 'Use text without control characters.');

/** What one triage decision sets: the status a person may choose, and why, until when, on what grounds. */
const triage = {
  status: z.enum(triageableStatuses),
  reason: Reason.optional(),
  until: Timestamp.optional(),
  justification: VexJustification.optional(),
};

type TriageShape = {
  status: string;
  reason?: string | undefined;
  until?: string | undefined;
  justification?: string | undefined;
};

/** Each status's own rules: not affected says why in VEX terms, an accepted risk says why and until when. */
function triageRules(body: TriageShape, ctx: z.RefinementCtx): void {
  if (body.status === 'not_affected' && !body.justification)
    ctx.addIssue({
      code: 'custom',
      path: ['justification'],
      message: 'Choose why the component is not affected (a VEX justification).',
    });
  if (body.status !== 'not_affected' && body.justification)
    ctx.addIssue({
      code: 'custom',
      path: ['justification'],
      message: 'Only a not affected finding has a justification.',
    });
  if (body.status === 'accepted') {
    if (!body.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Say why the risk is accepted.' });
    if (!body.until)
      ctx.addIssue({
        code: 'custom',
        path: ['until'],
        message: 'Choose when the acceptance ends (the finding opens again).',
      });
  } else if (body.until) {
    ctx.addIssue({ code: 'custom', path: ['until'], message: 'Only an accepted risk has an end date.' });
  }
}

export const UpdateFindingBody = z.object(triage).strict().superRefine(triageRules).meta({ id: 'UpdateFindingBody' });
export type UpdateFindingBody = z.input<typeof UpdateFindingBody>;

export const BulkFindingBody = z
  .object({
    ids: z
      .array(Id)
      .min(1, 'Select at least one finding.')
      .max(vulnLimits.bulkIds, `Select at most ${vulnLimits.bulkIds} findings at a time.`),
    ...triage,
  })
  .strict()
  .superRefine(triageRules)
  .meta({ id: 'BulkFindingBody' });
export type BulkFindingBody = z.input<typeof BulkFindingBody>;
export const BulkFindingAnswer = z
  .object({ updated: z.number().int(), items: z.array(Finding) })
  .meta({ id: 'BulkFindingAnswer' });

/** One finding with its decisions, newest last, and the library record's references. */
export const FindingDetail = Finding.extend({
  timeline: z.array(TriageEntry),
  patches: z.array(VirtualPatch),
  references: z.array(z.object({ type: z.string(), url: z.string() })),
}).meta({ id: 'FindingDetail' });
export type FindingDetail = z.infer<typeof FindingDetail>;

const PathPrefix = z
  .string()
  .trim()
  .min(1, 'Enter the path prefix to protect, such as /api/upload.')
  .max(1024, 'Use at most 1 024 characters.')
  .regex(/^\/[^\s?#]*$/, 'Use a path prefix such as /api/upload (it starts with /, without a query).');

/**
 * A virtual patch to make: a custom rule that blocks requests to a path (optionally only some methods, or only when
 * the query matches a pattern), or a CRS rule group to enable.
 */
export const VirtualPatchBody = z
  .discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('custom-rule'),
        firewallId: Id,
        path: PathPrefix,
        methods: z
          .array(
            z
              .string()
              .trim()
              .toUpperCase()
              .regex(/^[A-Z]{1,20}$/, 'Use HTTP methods such as GET or POST.'),
          )
          .max(9)
          .optional(),
        /** A PCRE the query string must match for the request to be blocked (ModSecurity's engine judges it). */
        queryPattern: z.string().trim().max(512, 'Use at most 512 characters.').optional(),
      })
      .strict(),
    z
      .object({
        kind: z.literal('crs-group'),
        firewallId: Id,
        group: z
          .string()
          .regex(
            /^REQUEST-\d{3}-[A-Z0-9-]+$/,
            'Use a CRS request rule group such as REQUEST-944-APPLICATION-ATTACK-JAVA.',
          ),
      })
      .strict(),
  ])
  .meta({ id: 'VirtualPatchBody' });
export type VirtualPatchBody = z.input<typeof VirtualPatchBody>;

/** What a virtual patch would change, before it is made (the compiled files that change, as remedies show them). */
export const VirtualPatchPreview = RemedyPreview.omit({ affected: true })
  .extend({
    /** A CRS group suggested by the record's weaknesses (CWE ids), if any. */
    suggestedGroup: z.string().nullable(),
  })
  .meta({ id: 'VirtualPatchPreview' });
export type VirtualPatchPreview = z.infer<typeof VirtualPatchPreview>;

export const VirtualPatchResult = z
  .object({ finding: Finding, version: z.number().int() })
  .meta({ id: 'VirtualPatchResult' });

/** A CycloneDX 1.5 VEX document (bomFormat, specVersion, metadata, vulnerabilities with their analysis). */
export const VexDocument = z.record(z.string(), z.unknown()).meta({ id: 'VexDocument' });
