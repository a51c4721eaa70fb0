/**
 * Assets of a space: list, read, create within the plan's limit, change, delete. A new inventory (typed
 * components or a CycloneDX SBOM) replaces the current one, which goes whole to `asset_inventories` with its source,
 * its SBOM's metadata, who replaced it and when; `inventory_version` counts them. Every change is audited.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  Asset,
  AssetDetail,
  CreateAssetBody,
  Inventory,
  SbomMeta,
  UpdateAssetBody,
} from '../../../../contract/assets.ts';
import type { SpaceCaller } from '../../../caller.ts';
import type { Executor } from '../../../db/database.ts';
import { firewalls } from '../../../db/schema/firewalls.ts';
import { users } from '../../../db/schema/users.ts';
import { type AssetRow, assetComponents, assetInventories, assets } from '../../../db/schema/vulns.ts';
import { ApiError, fieldError, notFound } from '../../../errors.ts';
import { recordActivity } from '../../activity/record.ts';
import { checkLimit, checkWritable } from '../../limits/limits.ts';
import { isUniqueViolation } from '../../shared/db-errors.ts';
import { lockSpace } from '../../spaces/lock-space.ts';
import { type ComponentRow, historyComponent, inventoryOf, type NewInventory, rowOfHistory } from './inventory.ts';
import { assetRowOf, assetView, assetViews, componentView, currentInventory, inventoryHistory } from './views.ts';

/** Rows per insert statement (7 parameters each, far below PostgreSQL's 65 535). */
const BATCH = 1_000;

function duplicateName(name: string): ApiError {
  return new ApiError(409, 'duplicate_name', `An asset named "${name}" exists already; choose another name.`, {
    fields: { name: 'Another asset has this name.' },
  });
}

/** 400 unless the firewall is the space's and sits in front of an application. */
async function checkFirewall(tx: Executor, spaceId: string, kind: string, firewallId: string | null): Promise<void> {
  if (firewallId === null) return;
  if (kind !== 'application')
    throw fieldError('firewallId', 'Only an application sits behind a firewall; leave the firewall empty for a host.');
  const [found] = await tx
    .select({ id: firewalls.id })
    .from(firewalls)
    .where(and(eq(firewalls.id, firewallId), eq(firewalls.spaceId, spaceId)));
  if (!found) throw fieldError('firewallId', 'This space has no such firewall.');
}

async function insertComponents(tx: Executor, assetId: string, rows: readonly ComponentRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) {
    await tx.insert(assetComponents).values(rows.slice(start, start + BATCH).map((row) => ({ ...row, assetId })));
  }
}

/** What the audit keeps of an inventory: its source, size and SBOM identity, not every component. */
function auditInventory(version: number, inventory: { source: string; sbom: SbomMeta | null; rows: unknown[] }) {
  return {
    version,
    source: inventory.source,
    components: inventory.rows.length,
    ...(inventory.sbom
      ? {
          sbom: {
            specVersion: inventory.sbom.specVersion,
            serialNumber: inventory.sbom.serialNumber,
            fileName: inventory.sbom.fileName,
          },
        }
      : {}),
  };
}

/** The space's assets by name, each with its component and finding counts. */
export async function listAssets(sc: SpaceCaller): Promise<{ items: Asset[] }> {
  return { items: await assetViews(sc.deps.db, sc.space.id) };
}

/** One asset with its current inventory (each component's findings) and the history of its inventories. */
export async function getAsset(sc: SpaceCaller, id: string): Promise<AssetDetail> {
  const row = await assetRowOf(sc.deps.db, sc.space.id, id);
  return {
    ...(await assetView(sc.deps.db, row)),
    inventory: await currentInventory(sc.deps.db, row.id),
    history: await inventoryHistory(sc.deps.db, row.id),
  };
}

/** One inventory of an asset: the current one (with findings) or a previous one from the history. */
export async function getInventory(sc: SpaceCaller, id: string, version: number): Promise<Inventory> {
  const row = await assetRowOf(sc.deps.db, sc.space.id, id);
  if (version === row.inventoryVersion) {
    return {
      version,
      current: true,
      source: row.inventorySource === 'sbom' ? 'sbom' : 'manual',
      sbom: (row.sbom as SbomMeta | null) ?? null,
      replacedAt: null,
      replacedBy: null,
      components: await currentInventory(sc.deps.db, row.id),
    };
  }
  const [old] = await sc.deps.db
    .select({ inventory: assetInventories, replacedByName: users.name })
    .from(assetInventories)
    .leftJoin(users, eq(users.id, assetInventories.replacedById))
    .where(and(eq(assetInventories.assetId, row.id), eq(assetInventories.version, version)));
  if (!old) throw notFound('inventory version');
  const components = old.inventory.components
    .map((c) => componentView(rowOfHistory(c), 0))
    .sort(
      (a, b) =>
        a.ecosystem.localeCompare(b.ecosystem) || a.name.localeCompare(b.name) || a.version.localeCompare(b.version),
    );
  return {
    version,
    current: false,
    source: old.inventory.source === 'sbom' ? 'sbom' : 'manual',
    sbom: (old.inventory.sbom as SbomMeta | null) ?? null,
    replacedAt: old.inventory.replacedAt.toISOString(),
    replacedBy: { id: old.inventory.replacedById, name: old.replacedByName ?? null },
    components,
  };
}

/** Creates an asset within the plan's limit, with the inventory the body gives (or none yet). */
export async function createAsset(sc: SpaceCaller, input: z.infer<typeof CreateAssetBody>): Promise<Asset> {
  const inventory: NewInventory = inventoryOf(input) ?? { source: 'manual', sbom: null, rows: [] };
  const now = sc.deps.now();
  try {
    const row = await sc.deps.db.transaction(async (tx) => {
      await lockSpace(tx, sc.space.id);
      await checkLimit(tx, sc.space, 'assets', {}, sc.deps.now());
      const firewallId = input.firewallId ?? null;
      await checkFirewall(tx, sc.space.id, input.kind, firewallId);
      const [created] = await tx
        .insert(assets)
        .values({
          spaceId: sc.space.id,
          name: input.name,
          kind: input.kind,
          environment: input.environment || null,
          tags: input.tags,
          firewallId,
          inventoryVersion: 1,
          inventorySource: inventory.source,
          sbom: inventory.sbom,
          createdById: sc.user.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!created) throw new Error('insert returned nothing');
      await insertComponents(tx, created.id, inventory.rows);
      await recordActivity(tx, sc.actor, {
        spaceId: sc.space.id,
        action: 'asset.create',
        objectType: 'asset',
        objectId: created.id,
        change: {
          name: created.name,
          kind: created.kind,
          environment: created.environment,
          tags: created.tags,
          firewallId: created.firewallId,
          inventory: auditInventory(1, inventory),
        },
      });
      return created;
    });
    return assetView(sc.deps.db, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(input.name);
    throw error;
  }
}

type AssetFields = Pick<AssetRow, 'name' | 'kind' | 'environment' | 'tags' | 'firewallId'>;
const fieldNames = ['name', 'kind', 'environment', 'tags', 'firewallId'] as const;

/**
 * Changes the given fields; a new inventory replaces the current one, which is kept in the history. The audit keeps
 * what changed and the inventory's version, source and size.
 */
export async function updateAsset(sc: SpaceCaller, id: string, input: z.infer<typeof UpdateAssetBody>): Promise<Asset> {
  const inventory = inventoryOf(input);
  const now = sc.deps.now();
  try {
    const row = await sc.deps.db.transaction(async (tx) => {
      const before = await assetRowOf(tx, sc.space.id, id, true);
      await checkWritable(tx, sc.space, 'assets', id);
      const merged: AssetFields = {
        name: input.name ?? before.name,
        kind: input.kind ?? before.kind,
        environment: input.environment === undefined ? before.environment : input.environment || null,
        tags: input.tags ?? before.tags,
        firewallId: input.firewallId === undefined ? before.firewallId : input.firewallId,
      };
      if (input.firewallId !== undefined || merged.firewallId !== before.firewallId || merged.kind !== before.kind)
        await checkFirewall(tx, sc.space.id, merged.kind, merged.firewallId);
      const change: Record<string, unknown> = {};
      for (const key of fieldNames) {
        if (JSON.stringify(before[key]) !== JSON.stringify(merged[key]))
          change[key] = { from: before[key], to: merged[key] };
      }
      let version = before.inventoryVersion;
      if (inventory) {
        const old = await tx
          .select()
          .from(assetComponents)
          .where(eq(assetComponents.assetId, before.id))
          .orderBy(asc(assetComponents.key));
        await tx.insert(assetInventories).values({
          assetId: before.id,
          version: before.inventoryVersion,
          source: before.inventorySource,
          sbom: before.sbom,
          components: old.map(historyComponent),
          replacedAt: now,
          replacedById: sc.user.id,
        });
        await tx.delete(assetComponents).where(eq(assetComponents.assetId, before.id));
        await insertComponents(tx, before.id, inventory.rows);
        version = before.inventoryVersion + 1;
        change.inventory = {
          from: { version: before.inventoryVersion, components: old.length },
          to: auditInventory(version, inventory),
        };
      }
      const [updated] = await tx
        .update(assets)
        .set({
          ...merged,
          ...(inventory ? { inventoryVersion: version, inventorySource: inventory.source, sbom: inventory.sbom } : {}),
          updatedAt: now,
        })
        .where(eq(assets.id, before.id))
        .returning();
      if (!updated) throw new Error('update returned nothing');
      await recordActivity(tx, sc.actor, {
        spaceId: sc.space.id,
        action: 'asset.update',
        objectType: 'asset',
        objectId: updated.id,
        change,
      });
      return updated;
    });
    return assetView(sc.deps.db, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(input.name ?? '');
    throw error;
  }
}

/** Deletes an asset with its inventories, history and findings (cascades). */
export async function deleteAsset(sc: SpaceCaller, id: string): Promise<void> {
  await sc.deps.db.transaction(async (tx) => {
    const row = await assetRowOf(tx, sc.space.id, id, true);
    await tx.delete(assets).where(eq(assets.id, row.id));
    await recordActivity(tx, sc.actor, {
      spaceId: sc.space.id,
      action: 'asset.delete',
      objectType: 'asset',
      objectId: row.id,
      change: { name: row.name, kind: row.kind, inventoryVersion: row.inventoryVersion },
    });
  });
}
