/**
 * WAF remedies: block an IP for a while or exclude a rule on a path, previewed (what it would have
 * affected in 7 days, the sentence, the compiled files that change) and applied as a new audited firewall version.
 */

import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { firewallLimits } from '../../../contract/constants/firewalls.ts';
import type { FirewallSettings } from '../../../contract/firewall-settings.ts';
import type { ApplyRemedyBody, Remedy, RemedyPreview, RemedyResult } from '../../../contract/waf.ts';
import type { SpaceCaller } from '../../caller.ts';
import type { Executor } from '../../db/database.ts';
import { type FirewallRow, firewallVersions } from '../../db/schema/firewalls.ts';
import { ApiError, fieldError } from '../../errors.ts';
import { changeFirewallSettings, checkedSettings, firewallTransaction } from '../firewalls/change.ts';
import { compileSettings } from '../firewalls/compiled.ts';
import { conflict } from '../firewalls/firewalls.ts';
import { firewallOf, firewallView } from '../firewalls/view.ts';
import { checkWritable } from '../limits/limits.ts';
import { remedyAffected } from './remedy-affected.ts';
import { type RemedyChange, remedyChange } from './remedy-change.ts';

/** The remedy's own fields for a settings problem about the entry it adds (`exclusions.3.ruleId` is `ruleId`). */
function remedyFields(error: unknown, at: RemedyChange['at']): unknown {
  if (!(error instanceof ApiError) || !error.fields) return error;
  const own = `${at.list}.${at.index}.`;
  const fields: Record<string, string> = {};
  for (const [name, text] of Object.entries(error.fields)) {
    const field = name.startsWith(own) ? name.slice(own.length) : name;
    fields[field === 'cidr' ? 'ip' : field] = text;
  }
  return new ApiError(error.status, error.code, error.message, { fields });
}

/** How many entries each list a remedy adds to may hold, and the remedy's field that names the entry. */
const listLimits = {
  ipDeny: { max: firewallLimits.ipListEntries, field: 'ip', what: 'deny list entries' },
  exclusions: { max: firewallLimits.exclusions, field: 'ruleId', what: 'exclusions' },
} as const;

/** The settings as the next version would store them; a problem with the added entry is named by the remedy's field. */
async function checked(db: Executor, row: FirewallRow, made: RemedyChange): Promise<FirewallSettings> {
  const limit = listLimits[made.at.list];
  if (made.settings[made.at.list].length > limit.max) {
    throw fieldError(
      limit.field,
      `“${row.name}” already has ${limit.max.toLocaleString('en')} ${limit.what}, its most.`,
    );
  }
  try {
    return await checkedSettings(db, row.id, made.settings);
  } catch (error) {
    throw remedyFields(error, made.at);
  }
}

/** The files of the firewall's current version. */
export async function currentFiles(db: Executor, row: FirewallRow): Promise<Record<string, string>> {
  const [found] = await db
    .select({ files: firewallVersions.files })
    .from(firewallVersions)
    .where(and(eq(firewallVersions.firewallId, row.id), eq(firewallVersions.version, row.version)));
  return found?.files ?? {};
}

/** The files that differ between two compilations, by name; a file only one side has is empty on the other. */
export function changedFiles(before: Record<string, string>, after: Record<string, string>): RemedyPreview['files'] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return names.flatMap((name) => {
    const old = before[name] ?? '';
    const next = after[name] ?? '';
    return old === next ? [] : [{ name, before: old, after: next }];
  });
}

/** What a remedy would change, computed against the firewall's current version; nothing is stored. */
export async function previewRemedy(sc: SpaceCaller, remedy: Remedy): Promise<RemedyPreview> {
  const { db } = sc.deps;
  const now = sc.deps.now();
  const row = await firewallOf(db, sc.space.id, remedy.firewallId);
  const made = remedyChange(row.settings, remedy, now);
  let files: RemedyPreview['files'] = [];
  if (!made.alreadyInPlace) {
    const settings = await checked(db, row, made);
    // The same compilation changeFirewallSettings makes when the remedy is applied.
    const next = await compileSettings(row.id, settings, now);
    files = changedFiles(await currentFiles(db, row), next.files);
  }
  return {
    firewall: { id: row.id, name: row.name, mode: row.settings.mode, version: row.version },
    affected: await remedyAffected(sc, remedy, now),
    alreadyInPlace: made.alreadyInPlace,
    change: made.change,
    files,
  };
}

/**
 * Applies a remedy as the firewall's next version (audited as `firewall.remedy`), announced to its connector after the
 * commit. A firewall past the previewed `version` answers 409 with the current one; a remedy already in place, 409.
 */
export async function applyRemedy(sc: SpaceCaller, body: z.infer<typeof ApplyRemedyBody>): Promise<RemedyResult> {
  const { version: started, ...remedy } = body;
  const outcome = await firewallTransaction(sc.deps.db, async (tx) => {
    const row = await firewallOf(tx, sc.space.id, remedy.firewallId, 'lock');
    if (started !== row.version) return { stale: row };
    await checkWritable(tx, sc.space, 'firewalls', row.id);
    const now = sc.deps.now();
    const made = remedyChange(row.settings, remedy, now);
    if (made.alreadyInPlace) throw new ApiError(409, 'remedy_in_place', made.change);
    const updated = await changeFirewallSettings(tx, row, {
      actor: sc.actor,
      action: 'firewall.remedy',
      comment: made.versionComment,
      change: { fromVersion: row.version, remedy, [made.at.list]: made.settings[made.at.list][made.at.index] },
      settings: await checked(tx, row, made),
      now,
    });
    return { updated };
  });
  if ('stale' in outcome) throw await conflict(sc, outcome.stale, started);
  return { firewall: firewallView(outcome.updated), version: outcome.updated.version };
}
