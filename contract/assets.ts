/**
 * Assets and their software inventories (docs/product.md §3 and §7, docs/assets.md): the bodies and answers the API
 * and the islands share. An inventory is typed components or a CycloneDX JSON SBOM; the server reads each package URL
 * and the SBOM (server/services/vulns/assets/read-inventory.ts) and names every problem on its field.
 */
import { z } from 'zod';
import { hasControl, Id, SpaceParams, Timestamp } from './common.ts';
import {
  assetKinds,
  type Ecosystem,
  ecosystems,
  findingStatuses,
  vulnLimits,
  vulnSeverities,
} from './constants/vulns.ts';
import { Person } from './members.ts';

export const AssetKind = z.enum(assetKinds).meta({ id: 'AssetKind' });

const oneLine = (what: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `Give ${what}.`)
    .max(max, `Use at most ${max} characters.`)
    .refine((value) => !hasControl(value), 'Use one line without control characters.');

const Name = oneLine('the asset a name', vulnLimits.assetNameLength);
const Environment = z
  .string()
  .trim()
  .max(60, 'Use at most 60 characters.')
  .refine((value) => !hasControl(value), 'Use one line without control characters.');
const Tag = oneLine('each tag some text', vulnLimits.tagLength).refine(
  (value) => !value.includes(','),
  'A tag has no comma; give each tag on its own.',
);
const Tags = z
  .array(Tag)
  .max(vulnLimits.tags, `Use at most ${vulnLimits.tags} tags.`)
  .refine((list) => new Set(list.map((t) => t.toLowerCase())).size === list.length, 'Give each tag once.');

/**
 * A component typed in: `{ purl }`, or `{ ecosystem, name, version }` with an ecosystem Spaceguard assesses.
 * One object with optional keys (not a union) so that a refusal names the key that is wrong.
 */
export const ComponentInput = z
  .object({
    purl: z.string().max(2_000, 'Use at most 2000 characters.').optional(),
    ecosystem: z.string().optional(),
    name: z.string().max(500, 'Use at most 500 characters.').optional(),
    version: z.string().max(200, 'Use at most 200 characters.').optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (input.purl !== undefined) {
      if (input.ecosystem !== undefined || input.name !== undefined)
        issue('purl', 'Give a package URL, or an ecosystem, name and version: not both.');
      return;
    }
    if (input.ecosystem === undefined)
      issue('ecosystem', 'Give a package URL (purl), or an ecosystem, name and version.');
    else if (!ecosystems.includes(input.ecosystem as Ecosystem))
      issue('ecosystem', `Use one of ${ecosystems.join(', ')}; other ecosystems go in as a package URL (purl).`);
    if (!input.name?.trim()) issue('name', 'Give the package name.');
    else if (input.ecosystem === 'Maven' && !/^[^:\s]+:[^:\s]+$/.test(input.name.trim()))
      issue('name', 'Write a Maven package as group:artifact (org.apache.logging.log4j:log4j-core).');
    if (!input.version?.trim()) issue('version', 'Give the version.');
  })
  .meta({ id: 'AssetComponentInput' });
export type ComponentInput = z.input<typeof ComponentInput>;

/** A CycloneDX JSON document (spec 1.4 to 1.6), as parsed from the file; the server reads and checks it. */
export const SbomInput = z
  .record(z.string(), z.unknown())
  .meta({ id: 'CycloneDxSbom', description: 'A CycloneDX JSON SBOM, spec 1.4–1.6, as the object of the file' });

const inventoryFields = {
  components: z
    .array(ComponentInput)
    .max(vulnLimits.componentsPerAsset, `Use at most ${vulnLimits.componentsPerAsset.toLocaleString('en')} components.`)
    .optional(),
  sbom: SbomInput.optional(),
  /** The SBOM's file name, kept with its metadata for the history. */
  sbomFileName: z.string().trim().max(200, 'Use at most 200 characters.').optional(),
};

/** Components and an SBOM are two ways to give one inventory: a body gives one of them, or neither. */
function checkInventory(
  input: { components?: unknown[] | undefined; sbom?: Record<string, unknown> | undefined },
  ctx: z.RefinementCtx,
): void {
  if (input.components !== undefined && input.sbom !== undefined)
    ctx.addIssue({ code: 'custom', path: ['sbom'], message: 'Give components or an SBOM, not both.' });
}

export const CreateAssetBody = z
  .object({
    name: Name,
    kind: AssetKind,
    environment: Environment.optional(),
    tags: Tags.default([]),
    /** The firewall in front of a web application (an application only). */
    firewallId: Id.nullable().optional(),
    ...inventoryFields,
  })
  .strict()
  .superRefine(checkInventory)
  .meta({ id: 'CreateAssetBody' });
export type CreateAssetBody = z.input<typeof CreateAssetBody>;

/** Any subset; `components` or `sbom` replaces the inventory, the previous one going to the history. */
export const UpdateAssetBody = z
  .object({
    name: Name.optional(),
    kind: AssetKind.optional(),
    environment: Environment.nullable().optional(),
    tags: Tags.optional(),
    firewallId: Id.nullable().optional(),
    ...inventoryFields,
  })
  .strict()
  .superRefine(checkInventory)
  .meta({ id: 'UpdateAssetBody' });
export type UpdateAssetBody = z.input<typeof UpdateAssetBody>;

// ---------------------------------------------------------------------------------------------------------------
// Answers

/** What an SBOM says of itself, kept with the inventory. */
export const SbomMeta = z
  .object({
    specVersion: z.string(),
    serialNumber: z.string().nullable(),
    version: z.number().nullable(),
    timestamp: z.string().nullable(),
    tools: z.array(z.string()),
    component: z.object({ name: z.string(), version: z.string().nullable(), purl: z.string().nullable() }).nullable(),
    fileName: z.string().nullable(),
  })
  .meta({ id: 'SbomMeta' });
export type SbomMeta = z.infer<typeof SbomMeta>;

const severityCounts = Object.fromEntries(vulnSeverities.map((s) => [s, z.number().int()])) as Record<
  (typeof vulnSeverities)[number],
  z.ZodNumber
>;
const statusCounts = Object.fromEntries(findingStatuses.map((s) => [s, z.number().int()])) as Record<
  (typeof findingStatuses)[number],
  z.ZodNumber
>;

/** An asset's findings: the open ones by severity, and all of them by status. */
export const AssetFindingCounts = z
  .object({ open: z.object(severityCounts), byStatus: z.object(statusCounts) })
  .meta({ id: 'AssetFindingCounts' });
export type AssetFindingCounts = z.infer<typeof AssetFindingCounts>;

export const InventorySource = z.enum(['manual', 'sbom']).meta({ id: 'InventorySource' });

export const Asset = z
  .object({
    id: Id,
    spaceId: Id,
    name: z.string(),
    kind: AssetKind,
    environment: z.string().nullable(),
    tags: z.array(z.string()),
    firewallId: Id.nullable(),
    inventoryVersion: z.number().int(),
    inventorySource: InventorySource,
    sbom: SbomMeta.nullable(),
    /** Distinct components of the current inventory, and those of them not assessed. */
    components: z.number().int(),
    notAssessed: z.number().int(),
    findings: AssetFindingCounts,
    lastAssessedAt: Timestamp.nullable(),
    createdBy: Person,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Asset' });
export type Asset = z.infer<typeof Asset>;

export const AssetList = z.object({ items: z.array(Asset) }).meta({ id: 'AssetList' });
export type AssetList = z.infer<typeof AssetList>;

export const InventoryComponent = z
  .object({
    /** `ecosystem:normalised name@version`, the key findings name (`componentKey`). */
    key: z.string(),
    purl: z.string().nullable(),
    ecosystem: z.string(),
    name: z.string(),
    version: z.string(),
    assessed: z.boolean(),
    /** Why it is not assessed, e.g. "not assessed (ecosystem cargo is not supported)". */
    note: z.string().nullable(),
    /** Findings of this component that are not fixed (current inventory only; 0 in history). */
    findings: z.number().int(),
  })
  .meta({ id: 'InventoryComponent' });
export type InventoryComponent = z.infer<typeof InventoryComponent>;

/** A previous inventory: what replaced it, when and by whom. */
export const InventoryHistoryEntry = z
  .object({
    version: z.number().int(),
    source: InventorySource,
    sbom: SbomMeta.nullable(),
    components: z.number().int(),
    replacedAt: Timestamp,
    replacedBy: Person,
  })
  .meta({ id: 'InventoryHistoryEntry' });
export type InventoryHistoryEntry = z.infer<typeof InventoryHistoryEntry>;

export const AssetDetail = Asset.extend({
  /** The current inventory by ecosystem and name. */
  inventory: z.array(InventoryComponent),
  /** Previous inventories, newest first. */
  history: z.array(InventoryHistoryEntry),
}).meta({ id: 'AssetDetail' });
export type AssetDetail = z.infer<typeof AssetDetail>;

/** One inventory of an asset, current or previous. */
export const Inventory = z
  .object({
    version: z.number().int(),
    current: z.boolean(),
    source: InventorySource,
    sbom: SbomMeta.nullable(),
    /** When a later inventory replaced it (null for the current one). */
    replacedAt: Timestamp.nullable(),
    replacedBy: Person.nullable(),
    components: z.array(InventoryComponent),
  })
  .meta({ id: 'Inventory' });
export type Inventory = z.infer<typeof Inventory>;

export const AssetParams = SpaceParams.extend({ id: Id });
export const InventoryParams = AssetParams.extend({
  version: z.coerce.number().int().min(1).max(2_147_483_647),
});
