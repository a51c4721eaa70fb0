/**
 * Matching an inventory against a space's library: the affected entries of the components' packages are read
 * (only non-withdrawn records; `vuln_affected_package_idx`), then matched in memory (`matchComponents`).
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/database.ts';
import { vulnAffected, vulnRefs } from '../../../db/schema/vulns.ts';
import type { OsvRange } from '../ecosystems/affected.ts';
import { baseEcosystem } from '../ecosystems/names.ts';
import { type Match, type MatchComponent, type MatchRecord, matchComponents } from './match.ts';

/** Package keys per query: one array parameter each, so a 20 000-component inventory is a few queries. */
const KEYS_PER_QUERY = 2_000;

/** The affected entries of non-withdrawn records of the space for these package keys. */
export async function loadAffected(
  db: Executor,
  spaceId: string,
  packageKeys: readonly string[],
): Promise<MatchRecord[]> {
  const records: MatchRecord[] = [];
  for (let start = 0; start < packageKeys.length; start += KEYS_PER_QUERY) {
    const keys = packageKeys.slice(start, start + KEYS_PER_QUERY);
    const rows = await db
      .select({
        refId: vulnAffected.refId,
        seq: vulnAffected.seq,
        ecosystem: vulnAffected.ecosystem,
        packageKey: vulnAffected.packageKey,
        ranges: vulnAffected.ranges,
        versions: vulnAffected.versions,
      })
      .from(vulnAffected)
      .innerJoin(vulnRefs, and(eq(vulnRefs.spaceId, vulnAffected.spaceId), eq(vulnRefs.id, vulnAffected.refId)))
      .where(
        and(
          eq(vulnAffected.spaceId, spaceId),
          sql`${vulnAffected.packageKey} = any(${sql.param(keys)}::text[])`,
          isNull(vulnRefs.withdrawn),
        ),
      )
      .orderBy(vulnAffected.refId, vulnAffected.seq);
    for (const row of rows) {
      // `Debian:12`: the ecosystem, and the release the entry is about.
      const ecosystem = baseEcosystem(row.ecosystem);
      if (!ecosystem) continue;
      const release = row.ecosystem.split(':')[1] || null;
      records.push({ ...row, ecosystem, release, ranges: row.ranges as OsvRange[] });
    }
  }
  return records;
}

/** The matches of the components against the space's library (withdrawn records never match). */
export async function matchInventory(
  db: Executor,
  spaceId: string,
  components: readonly MatchComponent[],
): Promise<Match[]> {
  const keys = [...new Set(components.map((c) => c.packageKey))];
  if (keys.length === 0) return [];
  return matchComponents(components, await loadAffected(db, spaceId, keys));
}
