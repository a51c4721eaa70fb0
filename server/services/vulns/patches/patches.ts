/**
 * Virtual patches: from a finding of a web application, a firewall change that blocks the flaw's way in
 * (a custom rule on a path, or the CRS rule group that covers the weakness), previewed as the compiled files that
 * change, applied as a new audited firewall version; the finding is then `mitigated` (VEX: protected at perimeter)
 * for as long as the firewall keeps the patch. Removing the patch (here, or by editing the firewall) reopens it.
 */

import { and, eq, isNull } from 'drizzle-orm';
import type { Finding, VirtualPatchBody, VirtualPatchPreview } from '../../../../contract/findings.ts';
import type { SpaceCaller } from '../../../caller.ts';
import type { Executor } from '../../../db/database.ts';
import type { FirewallRow } from '../../../db/schema/firewalls.ts';
import { assets, type FindingRow, findings, virtualPatches, vulnRefs } from '../../../db/schema/vulns.ts';
import { ApiError, notFound } from '../../../errors.ts';
import { recordActivity } from '../../activity/record.ts';
import { changeFirewallSettings, checkedSettings, firewallTransaction } from '../../firewalls/change.ts';
import { compileSettings, installedCrs } from '../../firewalls/compiled.ts';
import { firewallOf } from '../../firewalls/view.ts';
import { checkWritable } from '../../limits/limits.ts';
import { recordDecision } from '../../triage/record.ts';
import { changedFiles, currentFiles } from '../../waf/remedies.ts';
import { answeredFindings } from '../findings/view.ts';
import { type PatchChange, patchChange, suggestedGroup } from './patch-change.ts';

type Target = { finding: FindingRow; assetName: string };

/** The finding to patch: of the space, of a web application, and still present. */
async function patchable(db: Executor, sc: SpaceCaller, id: string, lock: boolean): Promise<Target> {
  const query = db
    .select({ finding: findings, assetName: assets.name, assetKind: assets.kind })
    .from(findings)
    .innerJoin(assets, eq(assets.id, findings.assetId))
    .where(and(eq(findings.id, id), eq(findings.spaceId, sc.space.id)));
  const [row] = lock ? await query.for('update', { of: findings }) : await query;
  if (!row) throw notFound('finding');
  if (row.assetKind !== 'application')
    throw new ApiError(
      409,
      'not_a_web_application',
      'Virtual patches protect web applications; this finding is of a host.',
    );
  if (row.finding.status === 'fixed')
    throw new ApiError(409, 'finding_fixed', 'This finding is fixed: the component no longer has the vulnerability.');
  return { finding: row.finding, assetName: row.assetName };
}

/** The change, with a CRS group checked against the installed CRS. */
async function changeFor(row: FirewallRow, body: VirtualPatchBody, target: Target): Promise<PatchChange> {
  if (body.kind === 'crs-group') {
    const group = (await installedCrs()).groups.find((g) => g.name === body.group);
    if (group?.kind !== 'request' || !group.optional)
      throw new ApiError(400, 'validation', `${body.group} is not a request rule group of the installed CRS.`, {
        fields: { group: `${body.group} is not a request rule group of the installed CRS.` },
      });
  }
  return patchChange(
    row.settings,
    body,
    { vulnId: target.finding.vulnId, packageName: target.finding.packageName, assetName: target.assetName },
    row.name,
  );
}

/** The record's CWE ids (GitHub advisories keep them in `database_specific.cwe_ids`). */
async function cweIds(db: Executor, spaceId: string, vulnId: string): Promise<string[]> {
  const [ref] = await db
    .select({ record: vulnRefs.record })
    .from(vulnRefs)
    .where(and(eq(vulnRefs.spaceId, spaceId), eq(vulnRefs.id, vulnId)));
  const specific = ref?.record.database_specific as { cwe_ids?: unknown } | undefined;
  return Array.isArray(specific?.cwe_ids) ? specific.cwe_ids.filter((c): c is string => typeof c === 'string') : [];
}

/** What a patch would change on the firewall's current version; nothing is stored. */
export async function previewPatch(sc: SpaceCaller, id: string, body: VirtualPatchBody): Promise<VirtualPatchPreview> {
  const { db } = sc.deps;
  const target = await patchable(db, sc, id, false);
  const row = await firewallOf(db, sc.space.id, body.firewallId);
  const made = await changeFor(row, body, target);
  let files: VirtualPatchPreview['files'] = [];
  if (!made.alreadyInPlace) {
    const settings = await checkedSettings(db, row.id, made.settings);
    const next = await compileSettings(row.id, settings, sc.deps.now());
    files = changedFiles(await currentFiles(db, row), next.files);
  }
  return {
    firewall: { id: row.id, name: row.name, mode: row.settings.mode, version: row.version },
    alreadyInPlace: made.alreadyInPlace,
    change: made.change,
    files,
    suggestedGroup: suggestedGroup(await cweIds(db, sc.space.id, target.finding.vulnId), target.finding.ecosystem),
  };
}

/** Makes the patch (a new firewall version unless the firewall already does it) and marks the finding mitigated. */
export async function applyPatch(
  sc: SpaceCaller,
  id: string,
  body: VirtualPatchBody,
): Promise<{ finding: Finding; version: number }> {
  const now = sc.deps.now();
  const outcome = await firewallTransaction(sc.deps.db, async (tx) => {
    const target = await patchable(tx, sc, id, true);
    const row = await firewallOf(tx, sc.space.id, body.firewallId, 'lock');
    await checkWritable(tx, sc.space, 'firewalls', row.id);
    const made = await changeFor(row, body, target);
    const updated = made.alreadyInPlace
      ? row
      : await changeFirewallSettings(tx, row, {
          actor: sc.actor,
          action: 'firewall.virtual_patch',
          comment: made.versionComment,
          change: { fromVersion: row.version, findingId: id, vulnId: target.finding.vulnId, patch: body },
          settings: made.settings,
          now,
        });
    const ruleId =
      body.kind === 'custom-rule'
        ? (updated.settings.customRules.find((r) => r.name === made.ruleName)?.id ?? null)
        : null;
    const description =
      body.kind === 'crs-group'
        ? `CRS rule group ${body.group} on ${row.name}`
        : `Rule ${ruleId ?? ''} “${made.ruleName}” blocking ${body.path} on ${row.name}`.replace('Rule  ', 'Rule ');
    const [patch] = await tx
      .insert(virtualPatches)
      .values({
        spaceId: sc.space.id,
        findingId: id,
        firewallId: row.id,
        kind: body.kind,
        ruleId,
        group: body.kind === 'crs-group' ? body.group : null,
        description,
        version: updated.version,
        createdById: sc.actor.id,
        createdAt: now,
      })
      .returning();
    if (!patch) throw new Error('insert returned nothing');
    await tx
      .update(findings)
      .set({ status: 'mitigated', justification: 'protected_at_perimeter', until: null, updatedAt: now })
      .where(eq(findings.id, id));
    await recordDecision(tx, {
      spaceId: sc.space.id,
      subject: { type: 'finding', id },
      decision: 'mitigated',
      actor: sc.actor,
      reason: `Virtual patch: ${description} (version ${updated.version}).`,
      scope: { justification: 'protected_at_perimeter', firewallId: row.id },
      change: { status: { from: target.finding.status, to: 'mitigated' }, patchId: patch.id },
      at: now,
    });
    await recordActivity(tx, sc.actor, {
      spaceId: sc.space.id,
      action: 'finding.virtual_patch',
      objectType: 'finding',
      objectId: id,
      change: { vulnId: target.finding.vulnId, firewallId: row.id, version: updated.version, patch: body },
    });
    return { version: updated.version };
  });
  const [finding] = await answeredFindings(sc.deps.db, sc.space.id, [id]);
  if (!finding) throw notFound('finding');
  return { finding, ...outcome };
}

/**
 * Takes a finding's patch off its firewall (a new version without the rule, or with the group disabled again); the
 * version's own check then ends the patch and reopens the finding. Idempotent: a finding without a patch in place is
 * answered as it is.
 */
export async function removePatch(sc: SpaceCaller, id: string): Promise<Finding> {
  await firewallTransaction(sc.deps.db, async (tx) => {
    const [found] = await tx
      .select({ patch: virtualPatches, vulnId: findings.vulnId })
      .from(virtualPatches)
      .innerJoin(findings, eq(findings.id, virtualPatches.findingId))
      .where(
        and(
          eq(virtualPatches.findingId, id),
          eq(virtualPatches.spaceId, sc.space.id),
          isNull(virtualPatches.removedAt),
        ),
      )
      .limit(1);
    if (!found) return;
    const { patch } = found;
    const row = await firewallOf(tx, sc.space.id, patch.firewallId, 'lock');
    await checkWritable(tx, sc.space, 'firewalls', row.id);
    const settings =
      patch.kind === 'crs-group' && patch.group
        ? {
            ...row.settings,
            managedRules: {
              ...row.settings.managedRules,
              disabledGroups: [...row.settings.managedRules.disabledGroups, patch.group],
            },
          }
        : { ...row.settings, customRules: row.settings.customRules.filter((r) => r.id !== patch.ruleId) };
    await changeFirewallSettings(tx, row, {
      actor: sc.actor,
      action: 'firewall.virtual_patch_removed',
      comment: `Remove the virtual patch for ${found.vulnId}`,
      change: { fromVersion: row.version, findingId: id, patchId: patch.id },
      settings,
      now: sc.deps.now(),
    });
  });
  const [finding] = await answeredFindings(sc.deps.db, sc.space.id, [id]);
  if (!finding) throw notFound('finding');
  return finding;
}
