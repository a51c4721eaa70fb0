/**
 * Assets and their software inventories (issue #16, PRODUCT.md §3 and §7): the bodies and answers the API and the
 * islands share, and the reading of an inventory (typed components or a CycloneDX JSON SBOM) into placed components,
 * with every problem named by its JSON path. Package URLs are parsed with packageurl-js.
 */
import { PackageURL } from 'packageurl-js';
import { z } from 'zod';
import { Id, SpaceParams, Timestamp } from './common.ts';
import {
  assetKinds,
  type Ecosystem,
  ecosystems,
  findingStatuses,
  vulnLimits,
  vulnSeverities,
} from './constants/vulns.ts';
import { hasControl } from './firewalls.ts';

export const AssetKind = z.enum(assetKinds).meta({ id: 'AssetKind' });

/** The CycloneDX versions read (their JSON shape of components and purls is the same). */
export const sbomSpecVersions = ['1.4', '1.5', '1.6'] as const;

/** How deep nested `components` may go before an SBOM is refused (real ones nest a few levels). */
export const sbomMaxDepth = 32;

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
      const read = readPurl(input.purl, input.version);
      if ('problem' in read) issue('purl', read.problem);
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

/** A CycloneDX JSON document (spec 1.4 to 1.6), as parsed from the file; read and checked by `readSbom`. */
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

/** Components and an SBOM are two ways to give one inventory; the SBOM's problems are named by their JSON path. */
function checkInventory(
  input: { components?: unknown[] | undefined; sbom?: Record<string, unknown> | undefined },
  ctx: z.RefinementCtx,
): void {
  if (input.components !== undefined && input.sbom !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['sbom'], message: 'Give components or an SBOM, not both.' });
    return;
  }
  if (input.sbom !== undefined) {
    const read = readSbom(input.sbom);
    if ('problem' in read) ctx.addIssue({ code: 'custom', path: ['sbom'], message: read.problem });
  }
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
// Reading inventories

/** A component placed in an ecosystem: Spaceguard's name for it, or the purl type when it is not assessed. */
export interface PlacedComponent {
  readonly purl: string | null;
  /** An ecosystem of `ecosystems`, or the purl type (`cargo`, `gem`…), or `unknown` without a purl. */
  readonly ecosystem: string;
  /** As the ecosystem writes it: npm `@scope/name`, Maven `group:artifact`, Go the module path. */
  readonly name: string;
  readonly version: string;
}

/** Whether Spaceguard assesses this ecosystem. */
export function isAssessed(ecosystem: string): ecosystem is Ecosystem {
  return ecosystems.includes(ecosystem as Ecosystem);
}

/** Why a component is not assessed, or null when it is. */
export function notAssessedNote(ecosystem: string): string | null {
  if (isAssessed(ecosystem)) return null;
  if (ecosystem === 'unknown') return 'not assessed (no package URL, so no ecosystem)';
  return `not assessed (ecosystem ${ecosystem} is not supported)`;
}

/**
 * Purl types and the ecosystem they map to. Debian: OSV records name source packages, so a purl's `upstream`
 * qualifier (the source package, `openssl` or `glibc@2.36-9`, as Syft and Trivy write it) names the component, at the
 * source's version where it gives one; without it the purl's name (the binary package) is kept.
 */
const purlEcosystems: Readonly<Record<string, Ecosystem>> = {
  npm: 'npm',
  pypi: 'PyPI',
  maven: 'Maven',
  golang: 'Go',
  deb: 'Debian',
};

/** A purl read into a placed component; `fallbackVersion` is the component's own version when the purl has none. */
export function readPurl(purl: string, fallbackVersion?: string): PlacedComponent | { problem: string } {
  let parsed: PackageURL;
  try {
    parsed = PackageURL.fromString(purl.trim());
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { problem: `${JSON.stringify(purl)} is not a package URL (${reason})` };
  }
  const version = (parsed.version ?? fallbackVersion ?? '').trim();
  if (!version) return { problem: `${JSON.stringify(purl)} has no version (add @version)` };
  const type = parsed.type.toLowerCase();
  const ecosystem = purlEcosystems[type];
  const namespace = parsed.namespace ?? '';
  let name: string;
  switch (ecosystem) {
    case 'npm':
      name = namespace ? `${namespace.startsWith('@') ? namespace : `@${namespace}`}/${parsed.name}` : parsed.name;
      break;
    case 'Maven':
      if (!namespace)
        return { problem: `${JSON.stringify(purl)} has no Maven group (pkg:maven/group/artifact@version)` };
      name = `${namespace}:${parsed.name}`;
      break;
    case 'Go':
    case undefined:
      name = namespace ? `${namespace}/${parsed.name}` : parsed.name;
      break;
    case 'Debian': {
      const upstream = parsed.qualifiers?.upstream?.trim();
      if (upstream) {
        const [source, sourceVersion] = upstream.split('@');
        return { purl: purl.trim(), ecosystem, name: source || parsed.name, version: sourceVersion?.trim() || version };
      }
      name = parsed.name;
      break;
    }
    default:
      name = parsed.name;
  }
  return { purl: purl.trim(), ecosystem: ecosystem ?? type, name, version };
}

/** A typed component (already checked by `ComponentInput`) placed. */
export function placeTyped(input: ComponentInput): PlacedComponent {
  if (input.purl !== undefined) {
    const read = readPurl(input.purl, input.version);
    if ('problem' in read) throw new Error(read.problem);
    return read;
  }
  return {
    purl: null,
    ecosystem: input.ecosystem ?? '',
    name: (input.name ?? '').trim(),
    version: (input.version ?? '').trim(),
  };
}

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

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** The tools' names: CycloneDX 1.4 lists them as an array, 1.5+ as `{ components, services }`. */
function toolNames(tools: unknown): string[] {
  const list = Array.isArray(tools)
    ? tools
    : isObject(tools)
      ? [
          ...(Array.isArray(tools.components) ? tools.components : []),
          ...(Array.isArray(tools.services) ? tools.services : []),
        ]
      : [];
  return list
    .filter(isObject)
    .map((tool) =>
      [text(tool.vendor) ?? text(tool.group), text(tool.name), text(tool.version)].filter(Boolean).join(' '),
    )
    .filter((name) => name.length > 0)
    .slice(0, 20);
}

function metaOf(sbom: Json, specVersion: string): SbomMeta {
  const metadata = isObject(sbom.metadata) ? sbom.metadata : {};
  const main = isObject(metadata.component) ? metadata.component : null;
  return {
    specVersion,
    serialNumber: text(sbom.serialNumber),
    version: typeof sbom.version === 'number' ? sbom.version : null,
    timestamp: text(metadata.timestamp),
    tools: toolNames(metadata.tools),
    component:
      main && text(main.name)
        ? { name: text(main.name) ?? '', version: text(main.version), purl: text(main.purl) }
        : null,
    fileName: null,
  };
}

/**
 * Reads a CycloneDX JSON SBOM: `bomFormat` "CycloneDX", `specVersion` 1.4–1.6, `components` with their nested
 * `components`, each with a `purl` (its version, else the component's `version`) or a `name` and `version` (kept
 * as ecosystem `unknown`, not assessed). The SBOM's own main component (`metadata.component`) is the asset itself
 * and is not part of the inventory. The first problem is answered with its JSON path.
 */
export function readSbom(sbom: Json): { components: PlacedComponent[]; meta: SbomMeta } | { problem: string } {
  if (sbom.bomFormat !== 'CycloneDX')
    return {
      problem: `sbom.bomFormat: must be "CycloneDX" (found ${JSON.stringify(sbom.bomFormat ?? null)}); only CycloneDX JSON SBOMs are read`,
    };
  const spec = sbom.specVersion;
  if (typeof spec !== 'string' || !(sbomSpecVersions as readonly string[]).includes(spec))
    return {
      problem: `sbom.specVersion: CycloneDX ${sbomSpecVersions.join(', ')} are read (found ${JSON.stringify(spec ?? null)})`,
    };
  const components: PlacedComponent[] = [];
  // Each list, then the nested lists of its components, without recursion (a hostile SBOM may nest deeply).
  const stack: { list: unknown; path: string; depth: number }[] = [];
  if (sbom.components !== undefined) stack.push({ list: sbom.components, path: 'sbom.components', depth: 1 });
  let seen = 0;
  while (stack.length > 0) {
    const { list, path, depth } = stack.pop() as { list: unknown; path: string; depth: number };
    if (!Array.isArray(list)) return { problem: `${path}: must be an array of components` };
    if (depth > sbomMaxDepth) return { problem: `${path}: components nest deeper than ${sbomMaxDepth} levels` };
    const nested: typeof stack = [];
    for (const [index, item] of list.entries()) {
      const at = `${path}[${index}]`;
      seen += 1;
      if (seen > vulnLimits.componentsPerAsset * 5)
        return {
          problem: `sbom.components: more than ${(vulnLimits.componentsPerAsset * 5).toLocaleString('en')} components listed (nested ones included); an asset holds at most ${vulnLimits.componentsPerAsset.toLocaleString('en')} distinct ones`,
        };
      if (!isObject(item)) return { problem: `${at}: must be a component object` };
      const version = item.version;
      if (version !== undefined && typeof version !== 'string') return { problem: `${at}.version: must be a string` };
      if (item.purl !== undefined) {
        if (typeof item.purl !== 'string') return { problem: `${at}.purl: must be a string` };
        const read = readPurl(item.purl, version);
        if ('problem' in read) return { problem: `${at}.purl: ${read.problem}` };
        components.push(read);
      } else {
        const name = text(item.name);
        if (!name || !text(version))
          return { problem: `${at}: a component needs a "purl", or a "name" and a "version"` };
        const group = text(item.group);
        components.push({
          purl: null,
          ecosystem: 'unknown',
          name: group ? `${group}/${name}` : name,
          version: text(version) ?? '',
        });
      }
      if (item.components !== undefined)
        nested.push({ list: item.components, path: `${at}.components`, depth: depth + 1 });
    }
    // Pushed in reverse so that the first component's nested list is read first.
    stack.push(...nested.reverse());
  }
  return { components, meta: metaOf(sbom, spec) };
}

// ---------------------------------------------------------------------------------------------------------------
// Answers

const Person = z.object({ id: Id.nullable(), name: z.string().nullable() });

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
