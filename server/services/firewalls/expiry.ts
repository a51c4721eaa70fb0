/**
 * IP list entries may expire. The files leave an entry out only when compiled, so once the newest version's files
 * go stale (`stale_at`, the first expiry after they were compiled) the next connector pull compiles a new version
 * from the same settings: audited, in the history, and pulled like any other.
 */
import { and, eq } from 'drizzle-orm';
import { firewalls, firewallVersions } from '../../db/schema/firewalls.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../activity/record.ts';
import { changeFirewallSettings, firewallTransaction } from './change.ts';

/** Who makes expiry versions: Spaceguard itself, at the job's time. */
const system = (at: Date): Actor => ({ id: null, name: 'Spaceguard', ip: null, userAgent: null, at });

/** Makes the next version of a firewall whose newest files went stale by `now`; answers whether it made one. */
export async function recompileStale(deps: AppDeps, firewallId: string): Promise<boolean> {
  const now = deps.now();
  return firewallTransaction(deps.db, async (tx) => {
    const [found] = await tx
      .select({ row: firewalls, staleAt: firewallVersions.staleAt })
      .from(firewalls)
      .innerJoin(
        firewallVersions,
        and(eq(firewallVersions.firewallId, firewalls.id), eq(firewallVersions.version, firewalls.version)),
      )
      .where(eq(firewalls.id, firewallId))
      .for('update', { of: firewalls });
    // Another request (or process) may have made it meanwhile.
    if (!found?.staleAt || found.staleAt > now) return false;
    await changeFirewallSettings(tx, found.row, {
      actor: system(now),
      action: 'firewall.expire',
      comment: 'IP list entries expired',
      change: { fromVersion: found.row.version, staleAt: found.staleAt.toISOString() },
      settings: found.row.settings,
      now,
      recompile: true,
    });
    return true;
  });
}
