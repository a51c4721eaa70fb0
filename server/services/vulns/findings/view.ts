/** A finding as the API answers it: its asset, component, vulnerability, triage and virtual patch. */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { vulnSeverities } from '../../../../contract/constants/vulns.ts';
import type { Finding, SeverityCounts, VirtualPatch } from '../../../../contract/findings.ts';
import type { Executor } from '../../../db/database.ts';
import { firewalls } from '../../../db/schema/firewalls.ts';
import { users } from '../../../db/schema/users.ts';
import {
  type AssetRow,
  assets,
  type FindingRow,
  findings,
  type VirtualPatchRow,
  virtualPatches,
} from '../../../db/schema/vulns.ts';

/** Zero of every severity. */
export function zeroCounts(): SeverityCounts {
  return Object.fromEntries(vulnSeverities.map((s) => [s, 0])) as SeverityCounts;
}

/** A patch with its firewall's name and mode and its author's name. */
export type PatchInfo = {
  patch: VirtualPatchRow;
  firewallName: string;
  firewallMode: VirtualPatch['firewallMode'];
  authorName: string | null;
};

export function patchView(info: PatchInfo): VirtualPatch {
  const { patch } = info;
  return {
    id: patch.id,
    firewallId: patch.firewallId,
    firewallName: info.firewallName,
    kind: patch.kind === 'crs-group' ? 'crs-group' : 'custom-rule',
    ruleId: patch.ruleId,
    group: patch.group,
    description: patch.description,
    version: patch.version,
    firewallMode: info.firewallMode,
    createdAt: patch.createdAt.toISOString(),
    createdBy: { id: patch.createdById, name: info.authorName },
    removedAt: patch.removedAt?.toISOString() ?? null,
    removedInVersion: patch.removedInVersion,
  };
}

/** The patches of findings (all of them, or only those in place), oldest first. */
export async function patchesOf(db: Executor, findingIds: string[], only: 'active' | 'all'): Promise<PatchInfo[]> {
  if (findingIds.length === 0) return [];
  const rows = await db
    .select({
      patch: virtualPatches,
      firewallName: firewalls.name,
      firewallMode: sql<VirtualPatch['firewallMode']>`${firewalls.settings}->>'mode'`,
      authorName: users.name,
    })
    .from(virtualPatches)
    .innerJoin(firewalls, eq(firewalls.id, virtualPatches.firewallId))
    .leftJoin(users, eq(users.id, virtualPatches.createdById))
    .where(
      and(
        inArray(virtualPatches.findingId, findingIds),
        only === 'active' ? isNull(virtualPatches.removedAt) : undefined,
      ),
    )
    .orderBy(virtualPatches.createdAt);
  return rows;
}

/** One finding as answered. */
export function findingView(
  row: FindingRow,
  asset: Pick<AssetRow, 'id' | 'name' | 'kind'>,
  patch: PatchInfo | undefined,
): Finding {
  return {
    id: row.id,
    asset: { id: asset.id, name: asset.name, kind: asset.kind === 'host' ? 'host' : 'application' },
    component: {
      key: row.componentKey,
      purl: row.purl,
      ecosystem: row.ecosystem,
      name: row.packageName,
      version: row.version,
    },
    vulnId: row.vulnId,
    aliases: row.aliases,
    summary: row.summary,
    severity: (vulnSeverities as readonly string[]).includes(row.severity)
      ? (row.severity as Finding['severity'])
      : 'unknown',
    score: row.score,
    fixedIn: row.fixedIn,
    status: row.status as Finding['status'],
    justification: (row.justification as Finding['justification']) ?? null,
    reason: row.reason,
    until: row.until?.toISOString() ?? null,
    firstSeen: row.firstSeen.toISOString(),
    lastSeen: row.lastSeen.toISOString(),
    fixedAt: row.fixedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
    virtualPatch: patch ? patchView(patch) : null,
  };
}

/** The findings of `ids` as answered, in that order (ids of other spaces are left out). */
export async function answeredFindings(db: Executor, spaceId: string, ids: string[]): Promise<Finding[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ finding: findings, asset: { id: assets.id, name: assets.name, kind: assets.kind } })
    .from(findings)
    .innerJoin(assets, eq(assets.id, findings.assetId))
    .where(and(eq(findings.spaceId, spaceId), inArray(findings.id, ids)));
  return viewsOf(db, rows, ids);
}

/** Views of selected rows, each with its patch in place; in `order` when given. */
export async function viewsOf(
  db: Executor,
  rows: { finding: FindingRow; asset: Pick<AssetRow, 'id' | 'name' | 'kind'> }[],
  order?: string[],
): Promise<Finding[]> {
  const patches = new Map(
    (
      await patchesOf(
        db,
        rows.map((r) => r.finding.id),
        'active',
      )
    ).map((p) => [p.patch.findingId, p]),
  );
  const views = new Map(rows.map((r) => [r.finding.id, findingView(r.finding, r.asset, patches.get(r.finding.id))]));
  return (order ?? rows.map((r) => r.finding.id)).flatMap((id) => views.get(id) ?? []);
}
