/** A firewall's versions (every change makes one, in change.ts): list, read, roll back. */

import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Firewall, FirewallVersion, FirewallVersionSummary, RollbackBody } from '../../../contract/firewalls.ts';
import type { SpaceCaller } from '../../caller.ts';
import type { Executor } from '../../db/database.ts';
import { type FirewallVersionRow, firewallVersions } from '../../db/schema/firewalls.ts';
import { notFound } from '../../errors.ts';
import { checkWritable } from '../limits/limits.ts';
import { changeFirewallSettings, firewallTransaction } from './change.ts';
import { firewallOf, firewallView } from './view.ts';

type Summary = z.infer<typeof FirewallVersionSummary>;

/** A version's line in the history. */
function summaryView(row: Omit<FirewallVersionRow, 'settings' | 'files'>): Summary {
  return {
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    author: { id: row.authorId, name: row.authorName },
    ...(row.comment ? { comment: row.comment } : {}),
    hash: row.hash,
  };
}

/** A firewall's versions, newest first. */
export async function listVersions(sc: SpaceCaller, id: string): Promise<{ items: Summary[] }> {
  const { db } = sc.deps;
  const firewall = await firewallOf(db, sc.space.id, id);
  const rows = await db
    .select({
      id: firewallVersions.id,
      firewallId: firewallVersions.firewallId,
      version: firewallVersions.version,
      hash: firewallVersions.hash,
      staleAt: firewallVersions.staleAt,
      authorId: firewallVersions.authorId,
      authorName: firewallVersions.authorName,
      comment: firewallVersions.comment,
      createdAt: firewallVersions.createdAt,
    })
    .from(firewallVersions)
    .where(eq(firewallVersions.firewallId, firewall.id))
    .orderBy(desc(firewallVersions.version));
  return { items: rows.map(summaryView) };
}

/** One version row of a firewall; 404 when it has no such version. */
async function versionOf(db: Executor, firewallId: string, version: number): Promise<FirewallVersionRow> {
  const [row] = await db
    .select()
    .from(firewallVersions)
    .where(and(eq(firewallVersions.firewallId, firewallId), eq(firewallVersions.version, version)));
  if (!row) throw notFound('version');
  return row;
}

/** One version with its settings and compiled files, so any two can be compared side by side. */
export async function firewallVersion(sc: SpaceCaller, id: string, version: number): Promise<FirewallVersion> {
  const firewall = await firewallOf(sc.deps.db, sc.space.id, id);
  const row = await versionOf(sc.deps.db, firewall.id, version);
  return { ...summaryView(row), settings: row.settings, files: row.files };
}

/** Makes a new version whose settings are those of version n; audited as a rollback. */
export async function rollbackFirewall(
  sc: SpaceCaller,
  id: string,
  input: z.infer<typeof RollbackBody>,
): Promise<Firewall> {
  const updated = await firewallTransaction(sc.deps.db, async (tx) => {
    const row = await firewallOf(tx, sc.space.id, id, 'lock');
    // A firewall past the plan's limit (after a downgrade) is read-only: rolling it back is a change too.
    await checkWritable(tx, sc.space, 'firewalls', row.id);
    const target = await versionOf(tx, row.id, input.version);
    return changeFirewallSettings(tx, row, {
      actor: sc.actor,
      action: 'firewall.rollback',
      comment: input.comment || `Rollback to version ${input.version}`,
      change: { fromVersion: row.version, toVersion: input.version },
      settings: target.settings,
      now: sc.deps.now(),
    });
  });
  return firewallView(updated);
}
