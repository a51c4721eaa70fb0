/**
 * The one way a firewall's settings change. Every change (an edit, a rollback, a WAF remedy, a virtual patch, the
 * recompile when IP list entries expire, and whatever comes next) runs in a `firewallTransaction` and makes its version
 * with `changeFirewallSettings`: the candidate settings are checked and compiled, stored as the next version, the
 * firewall row follows, the virtual patches the version no longer carries end, and the audit record is written, all in
 * the caller's transaction. Once it commits, the connectors waiting on each changed firewall are woken (other API
 * processes hear it through `notifyVersion`). Nothing else stores a version, syncs virtual patches or wakes connectors:
 * tests/architecture.test.ts holds the server to it.
 */
import { eq } from 'drizzle-orm';
import type { FirewallSettings } from '../../../contract/firewall-settings.ts';
import type { Db, Executor, Tx } from '../../db/database.ts';
import { type FirewallRow, firewalls, firewallVersions } from '../../db/schema/firewalls.ts';
import { notFound } from '../../errors.ts';
import { type Actor, recordActivity } from '../activity/record.ts';
import { syncVirtualPatches } from '../vulns/patches/sync.ts';
import { nextExpiry } from './compile/index.ts';
import { compileSettings, installedCrs } from './compiled.ts';
import { announceVersion, notifyVersion } from './connector/version-signal.ts';
import { checkForModSecurity, withRuleIds } from './settings.ts';
import { versionHash } from './view.ts';

declare const opened: unique symbol;
/** A transaction opened by `firewallTransaction`, the only kind a firewall's settings change in. */
export type FirewallTx = Tx & { readonly [opened]: true };

/** The firewalls each open transaction changed, whose connectors are woken once it commits. */
const toWake = new WeakMap<Tx, Set<string>>();

/**
 * Runs `work` in one transaction and, once it commits, wakes the connectors waiting on every firewall it changed
 * (none when it rolls back). One transaction may change several firewalls.
 */
export async function firewallTransaction<T>(db: Db, work: (tx: FirewallTx) => Promise<T>): Promise<T> {
  const changed = new Set<string>();
  const result = await db.transaction(async (tx) => {
    toWake.set(tx, changed);
    return work(tx as FirewallTx);
  });
  for (const id of changed) announceVersion(id);
  return result;
}

/** Wakes the connectors of this process waiting on the firewall once `tx` commits (its token changed, it is gone). */
export function wakeConnectorsOnCommit(tx: FirewallTx, firewallId: string): void {
  const changed = toWake.get(tx);
  if (!changed) throw new Error('a firewall change outside firewallTransaction');
  changed.add(firewallId);
}

/** Settings as stored: custom rules with their ids, checked against the installed CRS and PCRE (400 naming the field). */
export async function checkedSettings(
  db: Executor,
  firewallId: string | null,
  settings: FirewallSettings,
): Promise<FirewallSettings> {
  const checked = { ...settings, customRules: await withRuleIds(db, firewallId, settings.customRules) };
  checkForModSecurity(checked, await installedCrs());
  return checked;
}

/** A firewall about to be created: its space and connector token; `changeFirewallSettings` stores it as version 1. */
export type NewFirewall = { spaceId: string; tokenHash: string; tokenPrefix: string };

/** One change of a firewall's settings: who makes it, why, the settings it makes, and when. */
export type SettingsChange = {
  /** Who: the version's author and the audit record's actor (Spaceguard itself for a job). */
  actor: Actor;
  /** Why: the audit action, such as `firewall.update`, `firewall.rollback`, `firewall.remedy`. */
  action: string;
  /** The version's comment in the history, or null. */
  comment: string | null;
  /** What the audit record says changed; the version, its hash and the comment are added to it. */
  change: Record<string, unknown>;
  /** The candidate settings, or how to make them from the firewall's current ones. */
  settings: FirewallSettings | ((current: FirewallSettings) => FirewallSettings);
  /** The caller's clock reading: the version's time (and its files' expiry), the row's and the audit record's. */
  now: Date;
  /** Settings stored before (a recompile) are taken as they are: a CRS upgrade must not stop their files from changing. */
  recompile?: true;
};

/** Compiles settings and stores them as version `version`; the virtual patches it no longer carries end. */
async function storeVersion(
  tx: FirewallTx,
  firewallId: string,
  version: number,
  settings: FirewallSettings,
  change: SettingsChange,
) {
  const { files, hash } = await compileSettings(firewallId, settings, change.now);
  const [row] = await tx
    .insert(firewallVersions)
    .values({
      firewallId,
      version,
      settings,
      files,
      hash,
      staleAt: nextExpiry(settings, change.now),
      authorId: change.actor.id,
      authorName: change.actor.name,
      comment: change.comment,
      createdAt: change.now,
    })
    .returning();
  if (!row) throw new Error('insert returned nothing');
  // A virtual patch holds only while the version carries it; the finding it mitigated opens again.
  await syncVirtualPatches(tx, {
    firewallId,
    settings,
    version,
    firewallName: settings.name,
    actor: change.actor,
    now: change.now,
  });
  await notifyVersion(tx, firewallId);
  wakeConnectorsOnCommit(tx, firewallId);
  return row;
}

/**
 * Makes the next version of a firewall (version 1 of a new one) in `tx`, which holds the existing firewall's row
 * locked: checks the settings (400 naming the field), compiles them (400 for a value the compiler refuses), stores the
 * version, updates the firewall, ends the virtual patches the settings no longer carry and writes the audit record
 * (`change.action`, with the version and its hash). The connectors hear of it when `tx` commits. Answers the row.
 */
export async function changeFirewallSettings(
  tx: FirewallTx,
  firewall: FirewallRow | NewFirewall,
  change: SettingsChange,
): Promise<FirewallRow> {
  const { now } = change;
  const checked = (id: string | null, candidate: FirewallSettings) =>
    change.recompile ? candidate : checkedSettings(tx, id, candidate);
  let row: FirewallRow | undefined;
  let hash: string;
  if (!('id' in firewall)) {
    if (typeof change.settings === 'function') throw new Error('a new firewall has no settings to change');
    const settings = await checked(null, change.settings);
    [row] = await tx
      .insert(firewalls)
      .values({ ...firewall, name: settings.name, settings, version: 1, createdAt: now, updatedAt: now })
      .returning();
    if (!row) throw new Error('insert returned nothing');
    ({ hash } = await storeVersion(tx, row.id, 1, settings, change));
  } else {
    const candidate = typeof change.settings === 'function' ? change.settings(firewall.settings) : change.settings;
    const settings = await checked(firewall.id, candidate);
    const version = firewall.version + 1;
    ({ hash } = await storeVersion(tx, firewall.id, version, settings, change));
    // Same settings, same bytes (a rollback, a save that changes nothing): a connector that serves these very files
    // serves this version too. It hears of nothing new, since the hash is its ETag, so it is marked applied here.
    const served =
      firewall.connectorState === 'applied' &&
      firewall.appliedVersion !== null &&
      (await versionHash(tx, firewall.id, firewall.appliedVersion)) === hash;
    [row] = await tx
      .update(firewalls)
      .set({ settings, name: settings.name, version, updatedAt: now, ...(served ? { appliedVersion: version } : {}) })
      .where(eq(firewalls.id, firewall.id))
      .returning();
    if (!row) throw notFound('firewall');
  }
  await recordActivity(tx, change.actor, {
    spaceId: row.spaceId,
    action: change.action,
    objectType: 'firewall',
    objectId: row.id,
    change: { ...change.change, version: row.version, hash, ...(change.comment ? { comment: change.comment } : {}) },
  });
  return row;
}

/** Deletes a firewall whose row `tx` holds locked, with its versions; the findings its virtual patches mitigated open again. */
export async function removeFirewall(
  tx: FirewallTx,
  row: FirewallRow,
  who: { actor: Actor; now: Date },
): Promise<void> {
  await syncVirtualPatches(tx, {
    firewallId: row.id,
    settings: null,
    version: row.version,
    firewallName: row.name,
    actor: who.actor,
    now: who.now,
  });
  await tx.delete(firewalls).where(eq(firewalls.id, row.id));
  // A connector waiting on it learns at once that its token is gone.
  wakeConnectorsOnCommit(tx, row.id);
}
