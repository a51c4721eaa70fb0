/**
 * Firewalls of a space (docs/product.md §3): the list with its 24 h figures, one firewall, create with a
 * connector token (shown once), edit (each successful edit is a new version; a stale `version` answers 409),
 * delete after typing the name, and token rotation. Versions and rollback are in versions.ts.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { FirewallMode } from '../../../contract/constants/firewalls.ts';
import type { FirewallSettings } from '../../../contract/firewall-settings.ts';
import {
  type CreatedFirewall,
  type CreateFirewallBody,
  defaultFirewallSettings,
  type Firewall,
  type FirewallSummary,
  type UpdateFirewallBody,
} from '../../../contract/firewalls.ts';
import type { SpaceCaller } from '../../caller.ts';
import { type FirewallRow, firewalls, firewallVersions } from '../../db/schema/firewalls.ts';
import { ApiError, fieldError, notFound } from '../../errors.ts';
import { recordActivity } from '../activity/record.ts';
import { checkLimit, checkWritable } from '../limits/limits.ts';
import { hashToken, randomToken } from '../shared/tokens.ts';
import { lockSpace } from '../spaces/lock-space.ts';
import { changeFirewallSettings, firewallTransaction, removeFirewall, wakeConnectorsOnCommit } from './change.ts';
import { firewallFigures } from './figures.ts';
import { connectorColumns, connectorView, firewallOf, firewallView } from './view.ts';

/** Every connector token starts with this, so a leaked one is recognisable. */
const tokenPrefix = 'sgf_';

/** A fresh connector token with its stored hash and its visible prefix. */
function newToken() {
  const token = randomToken(tokenPrefix);
  return { token, tokenHash: hashToken(token), tokenPrefix: token.slice(0, tokenPrefix.length + 6) };
}

/** The top-level settings keys, in the order the contract lists them. */
const settingsKeys = Object.keys({
  name: 0,
  hostnames: 0,
  upstream: 0,
  mode: 0,
  ...defaultFirewallSettings,
}) as (keyof FirewallSettings)[];

/** `base` with each top-level key that `given` holds replaced whole (keys given as undefined are left alone). */
function replaced(base: FirewallSettings, given: Partial<Record<keyof FirewallSettings, unknown>>): FirewallSettings {
  const out: Record<string, unknown> = { ...base };
  for (const key of settingsKeys) if (given[key] !== undefined) out[key] = given[key];
  return out as FirewallSettings;
}

/** The four settings a create must give. */
function required(input: z.infer<typeof CreateFirewallBody>) {
  const { name, hostnames, upstream, mode } = input;
  return { name, hostnames, upstream, mode };
}

/** The space's firewalls by name, each with its events and blocked requests of the last 24 hours. */
export async function listFirewalls(sc: SpaceCaller): Promise<{ items: FirewallSummary[] }> {
  const { db, now } = sc.deps;
  // The list's columns only: a firewall's settings may hold 20 000 IP entries.
  const rows = await db
    .select({
      id: firewalls.id,
      name: firewalls.name,
      hostnames: sql<string[]>`${firewalls.settings}->'hostnames'`,
      upstream: sql<string>`${firewalls.settings}->>'upstream'`,
      mode: sql<FirewallMode>`${firewalls.settings}->>'mode'`,
      version: firewalls.version,
      ...connectorColumns,
    })
    .from(firewalls)
    .where(eq(firewalls.spaceId, sc.space.id))
    .orderBy(asc(firewalls.name), asc(firewalls.id));
  const figures = await firewallFigures(
    db,
    sc.space.id,
    rows.map((r) => r.id),
    now(),
  );
  return {
    items: rows.map((row) => {
      const { id, name, hostnames, upstream, mode, version } = row;
      const counted = figures.get(row.id) ?? { events24h: 0, blocked24h: 0, hourly: [] };
      return { id, name, hostnames, upstream, mode, version, connector: connectorView(row), ...counted };
    }),
  };
}

/** One firewall with its settings, newest version and connector state. */
export async function getFirewall(sc: SpaceCaller, id: string): Promise<Firewall> {
  return firewallView(await firewallOf(sc.deps.db, sc.space.id, id));
}

/** Creates a firewall (version 1) within the plan's limit; the answer carries its connector token, shown this once. */
export async function createFirewall(
  sc: SpaceCaller,
  input: z.infer<typeof CreateFirewallBody>,
): Promise<CreatedFirewall> {
  const { space } = sc;
  const now = sc.deps.now();
  const { token, tokenHash, tokenPrefix: prefix } = newToken();
  const created = await firewallTransaction(sc.deps.db, async (tx) => {
    // Two creates at once must not both pass the limit.
    await lockSpace(tx, space.id);
    await checkLimit(tx, space, 'firewalls', {}, now);
    const settings = replaced({ ...defaultFirewallSettings, ...required(input) }, input);
    return changeFirewallSettings(
      tx,
      { spaceId: space.id, tokenHash, tokenPrefix: prefix },
      {
        actor: sc.actor,
        action: 'firewall.create',
        comment: null,
        change: {
          name: settings.name,
          hostnames: settings.hostnames,
          upstream: settings.upstream,
          mode: settings.mode,
        },
        settings,
        now,
      },
    );
  });
  return { ...firewallView(created), token };
}

/** 409 for an edit that started from an older version: names both versions and who saved the newer one. */
export class VersionConflict extends ApiError {
  readonly current: Firewall;
  constructor(message: string, current: Firewall) {
    super(409, 'version_conflict', message);
    this.current = current;
  }
  override body() {
    const base = super.body();
    return { error: { ...base.error, current: this.current } };
  }
}

/** The conflict answer for an edit based on `started` while the firewall is at `row.version`. */
export async function conflict(sc: SpaceCaller, row: FirewallRow, started: number): Promise<VersionConflict> {
  const [newest] = await sc.deps.db
    .select({ authorName: firewallVersions.authorName, createdAt: firewallVersions.createdAt })
    .from(firewallVersions)
    .where(eq(firewallVersions.firewallId, row.id))
    .orderBy(desc(firewallVersions.version))
    .limit(1);
  const who = newest?.authorName ?? 'someone';
  const when = newest ? ` at ${newest.createdAt.toISOString()}` : '';
  return new VersionConflict(
    `Your changes start from version ${started}, but ${who} saved version ${row.version}${when}. Compare them, then save again from version ${row.version}.`,
    firewallView(row),
  );
}

/**
 * Replaces each given top-level key whole and saves the result as the next version. With `version` (the one
 * the edit started from) a newer save in between answers 409 with the current firewall.
 */
export async function updateFirewall(
  sc: SpaceCaller,
  id: string,
  input: z.infer<typeof UpdateFirewallBody>,
): Promise<Firewall> {
  const { version: started, comment, ...given } = input;
  const outcome = await firewallTransaction(sc.deps.db, async (tx) => {
    const row = await firewallOf(tx, sc.space.id, id, 'lock');
    if (started !== undefined && started !== row.version) return { stale: row };
    await checkWritable(tx, sc.space, 'firewalls', id);
    const keys = settingsKeys.filter((key) => given[key] !== undefined);
    const change: Record<string, unknown> = { fromVersion: row.version, keys };
    for (const key of ['name', 'upstream', 'mode'] as const) {
      if (given[key] !== undefined && given[key] !== row.settings[key]) {
        change[key] = { from: row.settings[key], to: given[key] };
      }
    }
    const updated = await changeFirewallSettings(tx, row, {
      actor: sc.actor,
      action: 'firewall.update',
      comment: comment || null,
      change,
      settings: (current) => replaced(current, given),
      now: sc.deps.now(),
    });
    return { updated };
  });
  if ('stale' in outcome) throw await conflict(sc, outcome.stale, started ?? 0);
  return firewallView(outcome.updated);
}

/** Deletes a firewall and its versions once its name is typed; its log source and events stay. */
export async function deleteFirewall(sc: SpaceCaller, id: string, confirmName: string): Promise<void> {
  await firewallTransaction(sc.deps.db, async (tx) => {
    const row = await firewallOf(tx, sc.space.id, id, 'lock');
    if (confirmName.trim() !== row.name) {
      throw fieldError('confirmName', 'Type the firewall’s name exactly to delete it.');
    }
    await removeFirewall(tx, row, { actor: sc.actor, now: sc.deps.now() });
    await recordActivity(tx, sc.actor, {
      spaceId: sc.space.id,
      action: 'firewall.delete',
      objectType: 'firewall',
      objectId: row.id,
      change: { name: row.name, version: row.version },
    });
  });
}

/** Gives a firewall a new connector token: the old one stops working at once; the new one is shown this once. */
export async function rotateFirewallToken(sc: SpaceCaller, id: string): Promise<CreatedFirewall> {
  const { token, tokenHash, tokenPrefix: prefix } = newToken();
  const updated = await firewallTransaction(sc.deps.db, async (tx) => {
    const [row] = await tx
      .update(firewalls)
      .set({ tokenHash, tokenPrefix: prefix, updatedAt: sc.deps.now() })
      .where(and(eq(firewalls.id, id), eq(firewalls.spaceId, sc.space.id)))
      .returning();
    if (!row) throw notFound('firewall');
    await recordActivity(tx, sc.actor, {
      spaceId: sc.space.id,
      action: 'firewall.token_rotate',
      objectType: 'firewall',
      objectId: row.id,
      change: { tokenPrefix: prefix },
    });
    // A connector waiting with the old token learns at once that it stopped working.
    wakeConnectorsOnCommit(tx, row.id);
    return row;
  });
  return { ...firewallView(updated), token };
}
