/**
 * Keeps findings in step with their firewalls: a virtual patch holds while its custom rule is in the firewall's current
 * version and enabled (or its CRS group is not disabled). Every new firewall version runs this in its transaction; a
 * version without the patch ends it and opens the finding again unless another patch still covers it.
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FirewallSettings } from '../../../../contract/firewall-settings.ts';
import type { Executor } from '../../../db/database.ts';
import { findings, type VirtualPatchRow, virtualPatches } from '../../../db/schema/vulns.ts';
import type { Actor } from '../../activity/record.ts';
import { recordDecision } from '../../triage/record.ts';

/** Whether the settings still carry a patch. */
export function patchInPlace(
  patch: Pick<VirtualPatchRow, 'kind' | 'ruleId' | 'group'>,
  settings: FirewallSettings,
): boolean {
  if (patch.kind === 'crs-group')
    return patch.group !== null && !settings.managedRules.disabledGroups.includes(patch.group);
  return settings.customRules.some((rule) => rule.id === patch.ruleId && rule.enabled);
}

/** Ends the patches a firewall no longer carries (or all of them, when the firewall is deleted) and reopens findings. */
export async function syncVirtualPatches(
  tx: Executor,
  input: {
    firewallId: string;
    /** The new version's settings, or null when the firewall is being deleted. */
    settings: FirewallSettings | null;
    version: number;
    firewallName: string;
    actor: Pick<Actor, 'id' | 'name'>;
    now: Date;
  },
): Promise<void> {
  const active = await tx
    .select()
    .from(virtualPatches)
    .where(and(eq(virtualPatches.firewallId, input.firewallId), isNull(virtualPatches.removedAt)));
  const ended = active.filter((p) => !input.settings || !patchInPlace(p, input.settings));
  if (ended.length === 0) return;
  await tx
    .update(virtualPatches)
    .set({ removedAt: input.now, removedInVersion: input.settings ? input.version : null })
    .where(
      inArray(
        virtualPatches.id,
        ended.map((p) => p.id),
      ),
    );
  for (const patch of ended) {
    const [others] = await tx
      .select({ id: virtualPatches.id })
      .from(virtualPatches)
      .where(and(eq(virtualPatches.findingId, patch.findingId), isNull(virtualPatches.removedAt)))
      .limit(1);
    if (others) continue;
    const [reopened] = await tx
      .update(findings)
      .set({ status: 'open', justification: null, updatedAt: input.now })
      .where(and(eq(findings.id, patch.findingId), eq(findings.status, 'mitigated')))
      .returning({ id: findings.id, spaceId: findings.spaceId });
    if (!reopened) continue;
    await recordDecision(tx, {
      spaceId: reopened.spaceId,
      subject: { type: 'finding', id: reopened.id },
      decision: 'reopened',
      actor: input.actor,
      reason: input.settings
        ? `The virtual patch (${patch.description}) is no longer in ${input.firewallName}, version ${input.version}.`
        : `The firewall ${input.firewallName} that held the virtual patch was deleted.`,
      change: { status: { from: 'mitigated', to: 'open' }, patchId: patch.id },
      at: input.now,
    });
  }
}
