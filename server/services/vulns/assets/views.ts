/** What the API answers of assets: each with its component and finding counts, one with its inventory and history. */
import { and, asc, count, desc, eq, inArray, ne, notInArray, sql } from 'drizzle-orm';
import type {
  Asset,
  AssetFindingCounts,
  InventoryComponent,
  InventoryHistoryEntry,
  SbomMeta,
} from '../../../../contract/assets.ts';
import { ecosystems, findingStatuses, vulnSeverities } from '../../../../contract/constants/vulns.ts';
import type { Executor } from '../../../db/database.ts';
import { users } from '../../../db/schema/users.ts';
import { type AssetRow, assetComponents, assetInventories, assets, findings } from '../../../db/schema/vulns.ts';
import { notFound } from '../../../errors.ts';
import type { ComponentRow } from './inventory.ts';
import { isAssessed, notAssessedNote } from './read-inventory.ts';

type Figures = { components: number; notAssessed: number; findings: AssetFindingCounts; createdByName: string | null };

function emptyCounts(): AssetFindingCounts {
  return {
    open: Object.fromEntries(vulnSeverities.map((s) => [s, 0])) as AssetFindingCounts['open'],
    byStatus: Object.fromEntries(findingStatuses.map((s) => [s, 0])) as AssetFindingCounts['byStatus'],
  };
}

/** The asset row of the space, locked for the transaction when `lock`; 404 when it is not the space's. */
export async function assetRowOf(db: Executor, spaceId: string, id: string, lock = false): Promise<AssetRow> {
  const query = db
    .select()
    .from(assets)
    .where(and(eq(assets.spaceId, spaceId), eq(assets.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('asset');
  return row;
}

/** The component and finding counts of these assets, and their creators' names. */
async function figuresOf(db: Executor, rows: readonly AssetRow[]): Promise<Map<string, Figures>> {
  const figures = new Map<string, Figures>();
  if (rows.length === 0) return figures;
  const ids = rows.map((r) => r.id);
  for (const row of rows)
    figures.set(row.id, { components: 0, notAssessed: 0, findings: emptyCounts(), createdByName: null });
  const components = await db
    .select({
      assetId: assetComponents.assetId,
      n: count(),
      notAssessed:
        sql<number>`count(*) filter (where ${notInArray(assetComponents.ecosystem, [...ecosystems])})`.mapWith(Number),
    })
    .from(assetComponents)
    .where(inArray(assetComponents.assetId, ids))
    .groupBy(assetComponents.assetId);
  for (const c of components) {
    const f = figures.get(c.assetId);
    if (f) Object.assign(f, { components: c.n, notAssessed: c.notAssessed });
  }
  const counted = await db
    .select({ assetId: findings.assetId, status: findings.status, severity: findings.severity, n: count() })
    .from(findings)
    .where(inArray(findings.assetId, ids))
    .groupBy(findings.assetId, findings.status, findings.severity);
  for (const c of counted) {
    const f = figures.get(c.assetId);
    if (!f) continue;
    const status = c.status as keyof AssetFindingCounts['byStatus'];
    f.findings.byStatus[status] = (f.findings.byStatus[status] ?? 0) + c.n;
    if (status === 'open') {
      const severity = (vulnSeverities as readonly string[]).includes(c.severity)
        ? (c.severity as keyof AssetFindingCounts['open'])
        : 'unknown';
      f.findings.open[severity] += c.n;
    }
  }
  const creators = [...new Set(rows.map((r) => r.createdById).filter((id): id is string => id !== null))];
  if (creators.length > 0) {
    const names = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, creators));
    const byId = new Map(names.map((u) => [u.id, u.name]));
    for (const row of rows) {
      const f = figures.get(row.id);
      if (f && row.createdById) f.createdByName = byId.get(row.createdById) ?? null;
    }
  }
  return figures;
}

function view(row: AssetRow, f: Figures): Asset {
  return {
    id: row.id,
    spaceId: row.spaceId,
    name: row.name,
    kind: row.kind as Asset['kind'],
    environment: row.environment,
    tags: row.tags,
    firewallId: row.firewallId,
    inventoryVersion: row.inventoryVersion,
    inventorySource: row.inventorySource === 'sbom' ? 'sbom' : 'manual',
    sbom: (row.sbom as SbomMeta | null) ?? null,
    components: f.components,
    notAssessed: f.notAssessed,
    findings: f.findings,
    lastAssessedAt: row.lastAssessedAt?.toISOString() ?? null,
    createdBy: { id: row.createdById, name: f.createdByName },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The assets of the space by name, with their figures. */
export async function assetViews(db: Executor, spaceId: string): Promise<Asset[]> {
  const rows = await db
    .select()
    .from(assets)
    .where(eq(assets.spaceId, spaceId))
    .orderBy(sql`lower(${assets.name})`, asc(assets.id));
  const figures = await figuresOf(db, rows);
  return rows.map((row) =>
    view(row, figures.get(row.id) ?? { components: 0, notAssessed: 0, findings: emptyCounts(), createdByName: null }),
  );
}

/** One asset with its figures. */
export async function assetView(db: Executor, row: AssetRow): Promise<Asset> {
  const figures = await figuresOf(db, [row]);
  return view(
    row,
    figures.get(row.id) ?? { components: 0, notAssessed: 0, findings: emptyCounts(), createdByName: null },
  );
}

/** A component as answered, with its findings that are not fixed. */
export function componentView(row: ComponentRow, findingCount: number): InventoryComponent {
  return {
    key: row.key,
    purl: row.purl,
    ecosystem: row.ecosystem,
    name: row.name,
    version: row.version,
    assessed: isAssessed(row.ecosystem),
    note: notAssessedNote(row.ecosystem),
    findings: findingCount,
  };
}

/** The current inventory of an asset by ecosystem, name and version, each with its findings that are not fixed. */
export async function currentInventory(db: Executor, assetId: string): Promise<InventoryComponent[]> {
  const rows = await db
    .select()
    .from(assetComponents)
    .where(eq(assetComponents.assetId, assetId))
    .orderBy(asc(assetComponents.ecosystem), asc(assetComponents.name), asc(assetComponents.version));
  const counted = await db
    .select({ key: findings.componentKey, n: count() })
    .from(findings)
    .where(and(eq(findings.assetId, assetId), ne(findings.status, 'fixed')))
    .groupBy(findings.componentKey);
  const byKey = new Map(counted.map((c) => [c.key, c.n]));
  return rows.map((row) => componentView(row, byKey.get(row.key) ?? 0));
}

/** The previous inventories of an asset, newest first. */
export async function inventoryHistory(db: Executor, assetId: string): Promise<InventoryHistoryEntry[]> {
  const rows = await db
    .select({
      version: assetInventories.version,
      source: assetInventories.source,
      sbom: assetInventories.sbom,
      components: sql<number>`jsonb_array_length(${assetInventories.components})`.mapWith(Number),
      replacedAt: assetInventories.replacedAt,
      replacedById: assetInventories.replacedById,
      replacedByName: users.name,
    })
    .from(assetInventories)
    .leftJoin(users, eq(users.id, assetInventories.replacedById))
    .where(eq(assetInventories.assetId, assetId))
    .orderBy(desc(assetInventories.version));
  return rows.map((r) => ({
    version: r.version,
    source: r.source === 'sbom' ? 'sbom' : 'manual',
    sbom: (r.sbom as SbomMeta | null) ?? null,
    components: r.components,
    replacedAt: r.replacedAt.toISOString(),
    replacedBy: { id: r.replacedById, name: r.replacedByName ?? null },
  }));
}
