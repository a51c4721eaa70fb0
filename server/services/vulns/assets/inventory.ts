/**
 * An asset's inventory as stored: the placed components of a body (typed or read from an SBOM) keyed the way
 * findings and the library meet them, duplicates merged, within the per-asset limit.
 */
import type { ComponentInput, SbomMeta } from '../../../../contract/assets.ts';
import { vulnLimits } from '../../../../contract/constants/vulns.ts';
import type { AssetComponentRow, InventoryComponent } from '../../../db/schema/vulns.ts';
import { fieldError } from '../../../errors.ts';
import { componentKey, packageKey } from '../ecosystems/names.ts';
import { isAssessed, type PlacedComponent, placeTyped, readSbom } from './read-inventory.ts';

/** A component row without its asset. */
export type ComponentRow = Omit<AssetComponentRow, 'assetId'>;

/** A new inventory: its rows (distinct by key), where it came from and what its SBOM said of itself. */
export interface NewInventory {
  readonly source: 'manual' | 'sbom';
  readonly sbom: SbomMeta | null;
  readonly rows: ComponentRow[];
}

/**
 * The package key of a component: Spaceguard's (`ecosystem:normalised name`) for an assessed ecosystem, else the
 * ecosystem (purl type) and the name as written.
 */
export function packageKeyOf(component: Pick<PlacedComponent, 'ecosystem' | 'name'>): string {
  return isAssessed(component.ecosystem)
    ? packageKey(component.ecosystem, component.name)
    : `${component.ecosystem}:${component.name}`;
}

/** A component's key within an asset (`findings.component_key`). */
export function keyOf(component: Pick<PlacedComponent, 'ecosystem' | 'name' | 'version'>): string {
  return isAssessed(component.ecosystem)
    ? componentKey(component.ecosystem, component.name, component.version)
    : `${packageKeyOf(component)}@${component.version}`;
}

/** Rows of placed components, the first of each key kept (a later duplicate adds nothing but a purl it lacked). */
export function rowsOf(placed: readonly PlacedComponent[], field: string): ComponentRow[] {
  const byKey = new Map<string, ComponentRow>();
  for (const component of placed) {
    const key = keyOf(component);
    const before = byKey.get(key);
    if (before) {
      if (before.purl === null && component.purl !== null) byKey.set(key, { ...before, purl: component.purl });
      continue;
    }
    byKey.set(key, {
      key,
      purl: component.purl,
      ecosystem: component.ecosystem,
      name: component.name,
      packageKey: packageKeyOf(component),
      version: component.version,
    });
  }
  if (byKey.size > vulnLimits.componentsPerAsset) {
    throw fieldError(
      field,
      `The inventory has ${byKey.size.toLocaleString('en')} distinct components; an asset holds at most ${vulnLimits.componentsPerAsset.toLocaleString('en')}.`,
    );
  }
  return [...byKey.values()];
}

/** The inventory a body gives (components or an SBOM, both checked by the contract), or null when it gives none. */
export function inventoryOf(input: {
  components?: ComponentInput[] | undefined;
  sbom?: Record<string, unknown> | undefined;
  sbomFileName?: string | undefined;
}): NewInventory | null {
  if (input.sbom !== undefined) {
    const read = readSbom(input.sbom);
    if ('problem' in read) throw fieldError('sbom', read.problem);
    return {
      source: 'sbom',
      sbom: { ...read.meta, fileName: input.sbomFileName || null },
      rows: rowsOf(read.components, 'sbom'),
    };
  }
  if (input.components !== undefined) {
    return { source: 'manual', sbom: null, rows: rowsOf(input.components.map(placeTyped), 'components') };
  }
  return null;
}

/** What the history keeps of a component. */
export function historyComponent(row: ComponentRow): InventoryComponent {
  return { purl: row.purl, ecosystem: row.ecosystem, name: row.name, version: row.version };
}

/** A history component as a row again (its key computed as today's rules compute it). */
export function rowOfHistory(component: InventoryComponent): ComponentRow {
  return {
    key: keyOf(component),
    purl: component.purl,
    ecosystem: component.ecosystem,
    name: component.name,
    packageKey: packageKeyOf(component),
    version: component.version,
  };
}
