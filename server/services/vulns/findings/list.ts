/** The findings list: filters kept in the URL (asset, status, severity, ecosystem, text), newest first, with counts. */

import { and, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { findingStatuses } from '../../../../contract/constants/vulns.ts';
import type { FindingList, FindingQuery } from '../../../../contract/findings.ts';
import type { SpaceCaller } from '../../../caller.ts';
import type { Executor } from '../../../db/database.ts';
import { assets, findings } from '../../../db/schema/vulns.ts';
import { anywhere } from '../../shared/like.ts';
import { encodeTimeCursor, olderThan } from '../../shared/time-cursor.ts';
import { viewsOf, zeroCounts } from './view.ts';

/** The conditions of every filter but status and severity (the counts are by those). */
function conditions(spaceId: string, q: z.infer<typeof FindingQuery>): SQL[] {
  const where: SQL[] = [eq(findings.spaceId, spaceId)];
  if (q.assetId) where.push(eq(findings.assetId, q.assetId));
  if (q.ecosystem && q.ecosystem.length > 0) where.push(inArray(findings.ecosystem, q.ecosystem));
  if (q.q) {
    const pattern = anywhere(q.q);
    where.push(
      or(
        ilike(findings.vulnId, pattern),
        ilike(findings.packageName, pattern),
        ilike(findings.summary, pattern),
        sql`array_to_string(${findings.aliases}, ' ') ilike ${pattern}`,
      ) as SQL,
    );
  }
  return where;
}

/** A page of the space's findings, with the filtered findings by status and the open ones by severity. */
export async function listFindings(sc: SpaceCaller, q: z.infer<typeof FindingQuery>): Promise<FindingList> {
  const { db } = sc.deps;
  const base = conditions(sc.space.id, q);
  const where = [...base];
  if (q.status && q.status.length > 0) where.push(inArray(findings.status, q.status));
  if (q.severity && q.severity.length > 0) where.push(inArray(findings.severity, q.severity));
  if (q.cursor) {
    const after = olderThan(findings.firstSeen, findings.id, q.cursor);
    if (after) where.push(after);
  }
  const rows = await db
    .select({ finding: findings, asset: { id: assets.id, name: assets.name, kind: assets.kind } })
    .from(findings)
    .innerJoin(assets, eq(assets.id, findings.assetId))
    .where(and(...where))
    .orderBy(desc(findings.firstSeen), desc(findings.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const counted = await db
    .select({ status: findings.status, severity: findings.severity, n: sql<number>`count(*)::int` })
    .from(findings)
    .where(and(...base))
    .groupBy(findings.status, findings.severity);
  const status = Object.fromEntries(findingStatuses.map((s) => [s, 0])) as FindingList['counts']['status'];
  const open = zeroCounts();
  for (const row of counted) {
    status[row.status as keyof typeof status] += row.n;
    if (row.status === 'open' && row.severity in open) open[row.severity as keyof typeof open] += row.n;
  }
  return {
    items: await viewsOf(db, page),
    nextCursor: rows.length > q.limit && last ? encodeTimeCursor(last.finding.firstSeen, last.finding.id) : null,
    counts: { status, open },
  };
}

/** The open findings of a space by severity (the overview's and the trend's counts). */
export async function openCounts(db: Executor, spaceId: string) {
  const rows = await db
    .select({ severity: findings.severity, n: sql<number>`count(*)::int` })
    .from(findings)
    .where(and(eq(findings.spaceId, spaceId), eq(findings.status, 'open')))
    .groupBy(findings.severity);
  const counts = zeroCounts();
  for (const row of rows) if (row.severity in counts) counts[row.severity as keyof typeof counts] += row.n;
  return counts;
}
