/**
 * The reading of an asset's inventory: typed components and CycloneDX JSON SBOMs into placed components, package URLs
 * parsed with packageurl-js, every problem named by its field and the SBOM's JSON path. The API checks a body with
 * the contract's schema and this reading together, so a purl or an SBOM it cannot read is refused before anything
 * is written.
 */
import { PackageURL } from 'packageurl-js';
import type { z } from 'zod';
import { type ComponentInput, CreateAssetBody, type SbomMeta, UpdateAssetBody } from '../../../../contract/assets.ts';
import { type Ecosystem, ecosystems, vulnLimits } from '../../../../contract/constants/vulns.ts';

/** The CycloneDX versions read (their JSON shape of components and purls is the same). */
export const sbomSpecVersions = ['1.4', '1.5', '1.6'] as const;

/** How deep nested `components` may go before an SBOM is refused (real ones nest a few levels). */
export const sbomMaxDepth = 32;

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

/** Each typed purl and the SBOM of a body read, their problems named on their fields (the SBOM's with its JSON path). */
function readsInventory(
  input: { components?: ComponentInput[] | undefined; sbom?: Record<string, unknown> | undefined },
  ctx: z.RefinementCtx,
): void {
  for (const [index, component] of (input.components ?? []).entries()) {
    if (component.purl === undefined) continue;
    const read = readPurl(component.purl, component.version);
    if ('problem' in read) ctx.addIssue({ code: 'custom', path: ['components', index, 'purl'], message: read.problem });
  }
  // Components and an SBOM together are refused by the contract without reading the SBOM.
  if (input.sbom !== undefined && input.components === undefined) {
    const read = readSbom(input.sbom);
    if ('problem' in read) ctx.addIssue({ code: 'custom', path: ['sbom'], message: read.problem });
  }
}

/** The body that creates an asset, as the API checks it: the contract's schema, and its inventory read (same API name). */
export const CreateAssetInput = CreateAssetBody.superRefine(readsInventory).meta({ id: 'CreateAssetBody' });

/** The body that changes an asset, as the API checks it: the contract's schema, and its inventory read (same API name). */
export const UpdateAssetInput = UpdateAssetBody.superRefine(readsInventory).meta({ id: 'UpdateAssetBody' });
