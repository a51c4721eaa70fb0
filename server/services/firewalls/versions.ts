/** A firewall's versions: every save makes one (checked, compiled, stored, announced); list, read, roll back. */

import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  Firewall,
  FirewallSettings,
  FirewallVersion,
  FirewallVersionSummary,
  RollbackBody,
} from '../../../contract/firewalls.ts';
import type { SpaceCaller } from '../../caller.ts';
import type { Executor } from '../../db/database.ts';
import { type FirewallRow, type FirewallVersionRow, firewalls, firewallVersions } from '../../db/schema/firewalls.ts';
import { notFound } from '../../errors.ts';
import { type Actor, recordActivity } from '../activity/record.ts';
import { checkWritable } from '../limits/limits.ts';
import { syncVirtualPatches } from '../vulns/patches/sync.ts';
import { nextExpiry } from './compile/index.ts';
import { compileSettings, installedCrs } from './compiled.ts';
import { checkForModSecurity, withRuleIds } from './settings.ts';
import { announceVersion, notifyVersion } from './version-signal.ts';
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

/** Compiles settings and stores them as a version; other API processes hear of it when `tx` commits. */
export async function saveVersion(
  tx: Executor,
  input: {
    firewallId: string;
    version: number;
    settings: FirewallSettings;
    actor: Actor;
    comment: string | null;
    now: Date;
  },
): Promise<FirewallVersionRow> {
  const { files, hash } = await compileSettings(input.firewallId, input.settings, input.now);
  const staleAt = nextExpiry(input.settings, input.now);
  const [row] = await tx
    .insert(firewallVersions)
    .values({
      firewallId: input.firewallId,
      version: input.version,
      settings: input.settings,
      files,
      hash,
      staleAt,
      authorId: input.actor.id,
      authorName: input.actor.name,
      comment: input.comment,
      createdAt: input.now,
    })
    .returning();
  if (!row) throw new Error('insert returned nothing');
  // Virtual patches hold only while the version carries them (issue #16).
  await syncVirtualPatches(tx, {
    firewallId: input.firewallId,
    settings: input.settings,
    version: input.version,
    firewallName: input.settings.name,
    actor: input.actor,
    now: input.now,
  });
  await notifyVersion(tx, input.firewallId);
  return row;
}

/** The hash of a firewall's version n, or null when it has none. */
export async function versionHash(tx: Executor, firewallId: string, version: number): Promise<string | null> {
  const [row] = await tx
    .select({ hash: firewallVersions.hash })
    .from(firewallVersions)
    .where(and(eq(firewallVersions.firewallId, firewallId), eq(firewallVersions.version, version)));
  return row?.hash ?? null;
}

/** Settings as stored: custom rules with their ids, checked against the installed CRS and PCRE (400 naming the field). */
export async function checkedSettings(
  tx: Executor,
  firewallId: string | null,
  settings: FirewallSettings,
): Promise<FirewallSettings> {
  const checked = { ...settings, customRules: await withRuleIds(tx, firewallId, settings.customRules) };
  checkForModSecurity(checked, await installedCrs());
  return checked;
}

/**
 * Makes the next version of a firewall whose row `tx` holds locked: checks and compiles the settings, stores the
 * version, updates the firewall and writes the audit record. The caller announces the version after the commit.
 */
export async function commitSettings(
  tx: Executor,
  sc: Pick<SpaceCaller, 'deps' | 'actor'>,
  row: FirewallRow,
  settings: FirewallSettings,
  audit: { action: string; comment: string | null; change: Record<string, unknown>; unchecked?: true },
): Promise<FirewallRow> {
  const now = sc.deps.now();
  // Settings saved before (a recompile) are taken as they are: a CRS upgrade must not stop their files from changing.
  const checked = audit.unchecked ? settings : await checkedSettings(tx, row.id, settings);
  const version = row.version + 1;
  const saved = await saveVersion(tx, {
    firewallId: row.id,
    version,
    settings: checked,
    actor: sc.actor,
    comment: audit.comment,
    now,
  });
  // Same settings, same bytes (a rollback, a save that changes nothing): a connector that serves these very files
  // serves this version too. It hears of nothing new, since the hash is its ETag, so it is marked applied here.
  const served =
    row.connectorState === 'applied' &&
    row.appliedVersion !== null &&
    (await versionHash(tx, row.id, row.appliedVersion)) === saved.hash;
  const [updated] = await tx
    .update(firewalls)
    .set({
      settings: checked,
      name: checked.name,
      version,
      updatedAt: now,
      ...(served ? { appliedVersion: version } : {}),
    })
    .where(eq(firewalls.id, row.id))
    .returning();
  if (!updated) throw notFound('firewall');
  await recordActivity(tx, sc.actor, {
    spaceId: row.spaceId,
    action: audit.action,
    objectType: 'firewall',
    objectId: row.id,
    change: { ...audit.change, version, hash: saved.hash, ...(audit.comment ? { comment: audit.comment } : {}) },
  });
  return updated;
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
  const updated = await sc.deps.db.transaction(async (tx) => {
    const row = await firewallOf(tx, sc.space.id, id, 'lock');
    // A firewall past the plan's limit (after a downgrade) is read-only: rolling it back is a change too.
    await checkWritable(tx, sc.space, 'firewalls', row.id);
    const target = await versionOf(tx, row.id, input.version);
    return commitSettings(tx, sc, row, target.settings, {
      action: 'firewall.rollback',
      comment: input.comment || `Rollback to version ${input.version}`,
      change: { fromVersion: row.version, toVersion: input.version },
    });
  });
  announceVersion(updated.id);
  return firewallView(updated);
}
