/**
 * Writing OSV records into a space's library: upsert by (space, id) where only a newer `modified` overwrites, and
 * the record's `vuln_affected` rows rewritten with it (withdrawn records and ecosystems Spaceguard does not order
 * get none).
 */

import { and, eq, inArray, sql } from 'drizzle-orm';
import type { OsvRecord } from '../../../../contract/vuln-refs.ts';
import type { Executor } from '../../../db/database.ts';
import { vulnAffected, vulnRefs } from '../../../db/schema/vulns.ts';
import { chunksOf } from '../../shared/chunks.ts';
import { baseEcosystem, packageKey } from '../ecosystems/names.ts';
import { recordSeverity } from './severity.ts';
import { instantOf, isWithdrawn, modifiedAt, osvInstant } from './times.ts';

export type StoreCounts = { imported: number; updated: number; unchanged: number; withdrawn: number };

export const noCounts = (): StoreCounts => ({ imported: 0, updated: 0, unchanged: 0, withdrawn: 0 });

/** The ecosystem as the library's filter names it: OSV's name without its release (`Debian:12` → `Debian`). */
export const ecosystemFamily = (ecosystem: string) => ecosystem.split(':')[0] ?? ecosystem;

const distinct = (values: string[]) => [...new Set(values)];

/** The library row of a record: its columns for search, filters and the list, and the record whole. */
export function refRow(spaceId: string, record: OsvRecord, importedAt: Date) {
  const severity = recordSeverity(record);
  const packages = (record.affected ?? []).flatMap((a) => (a.package ? [a.package] : []));
  const keys = packages.flatMap((p) => {
    const base = baseEcosystem(p.ecosystem);
    return base ? [packageKey(base, p.name)] : [];
  });
  const aliases = record.aliases ?? [];
  const summary = record.summary ?? '';
  return {
    spaceId,
    id: record.id,
    aliases,
    summary,
    modified: modifiedAt(record),
    published: osvInstant(record.published),
    withdrawn: osvInstant(record.withdrawn),
    severity: severity.severity,
    score: severity.score,
    ecosystems: distinct(packages.map((p) => ecosystemFamily(p.ecosystem))),
    packages: distinct(keys),
    searchText: [record.id, ...aliases, summary, ...packages.map((p) => p.name)].join('\n').toLowerCase(),
    record: record as Record<string, unknown>,
    importedAt,
  };
}

/**
 * The matching rows of a record: one per affected entry of an ecosystem Spaceguard orders; none when withdrawn. The
 * row keeps OSV's ecosystem whole (`Debian:12`): a release-specific entry matches only components of that release.
 */
export function affectedRows(spaceId: string, record: OsvRecord) {
  if (isWithdrawn(record)) return [];
  return (record.affected ?? []).flatMap((entry, seq) => {
    const ecosystem = entry.package ? baseEcosystem(entry.package.ecosystem) : null;
    if (!entry.package || !ecosystem) return [];
    return [
      {
        spaceId,
        refId: record.id,
        seq,
        ecosystem: entry.package.ecosystem,
        packageKey: packageKey(ecosystem, entry.package.name),
        packageName: entry.package.name,
        ranges: entry.ranges ?? [],
        versions: entry.versions ?? [],
      },
    ];
  });
}

/**
 * Stores a batch of records in one space (call it inside the import's transaction). A record whose `modified` is
 * not newer than the stored one is unchanged (an unknown `modified` is older than every real one: `times.ts`);
 * within the batch the newest of one id wins. Every record lands in exactly one count: imported (new), updated
 * (newer), unchanged, or withdrawn (stored, newer or new, and withdrawn).
 */
export async function storeRecords(
  tx: Executor,
  spaceId: string,
  records: OsvRecord[],
  at: Date,
): Promise<StoreCounts> {
  const counts = noCounts();
  if (records.length === 0) return counts;
  const ids = distinct(records.map((r) => r.id));
  const stored = new Map<string, number>();
  for (const part of chunksOf(ids, 1_000)) {
    const rows = await tx
      .select({ id: vulnRefs.id, modified: instantOf(vulnRefs.modified) })
      .from(vulnRefs)
      .where(and(eq(vulnRefs.spaceId, spaceId), inArray(vulnRefs.id, part)));
    for (const row of rows) stored.set(row.id, row.modified.getTime());
  }
  const winners = new Map<string, OsvRecord>();
  for (const record of records) {
    const time = modifiedAt(record).getTime();
    const before = winners.get(record.id);
    const storedAt = stored.get(record.id);
    if ((before && modifiedAt(before).getTime() >= time) || (storedAt !== undefined && storedAt >= time)) {
      counts.unchanged++;
      continue;
    }
    if (before) counts.unchanged++; // the one it replaces in this batch
    winners.set(record.id, record);
  }
  const candidates = [...winners.values()];
  if (candidates.length === 0) return counts;
  const written = new Set<string>();
  for (const part of chunksOf(candidates, 200)) {
    const rows = await tx
      .insert(vulnRefs)
      .values(part.map((record) => refRow(spaceId, record, at)))
      .onConflictDoUpdate({
        target: [vulnRefs.spaceId, vulnRefs.id],
        set: {
          aliases: sql`excluded.aliases`,
          summary: sql`excluded.summary`,
          modified: sql`excluded.modified`,
          published: sql`excluded.published`,
          withdrawn: sql`excluded.withdrawn`,
          severity: sql`excluded.severity`,
          score: sql`excluded.score`,
          ecosystems: sql`excluded.ecosystems`,
          packages: sql`excluded.packages`,
          searchText: sql`excluded.search_text`,
          record: sql`excluded.record`,
          importedAt: sql`excluded.imported_at`,
        },
        // Another import may have stored a newer one since the read above: an older `modified` never overwrites.
        setWhere: sql`excluded.modified > ${vulnRefs.modified}`,
      })
      .returning({ id: vulnRefs.id });
    for (const row of rows) written.add(row.id);
  }
  const changed = candidates.filter((record) => written.has(record.id));
  for (const record of candidates) {
    if (!written.has(record.id)) counts.unchanged++;
    else if (isWithdrawn(record)) counts.withdrawn++;
    else if (stored.has(record.id)) counts.updated++;
    else counts.imported++;
  }
  if (changed.length === 0) return counts;
  const changedIds = changed.map((r) => r.id);
  for (const part of chunksOf(changedIds, 1_000)) {
    await tx.delete(vulnAffected).where(and(eq(vulnAffected.spaceId, spaceId), inArray(vulnAffected.refId, part)));
  }
  const affected = changed.flatMap((record) => affectedRows(spaceId, record));
  for (const part of chunksOf(affected, 1_000)) await tx.insert(vulnAffected).values(part);
  return counts;
}
