/** The alerts list: filters kept in the URL (status, severity, rule, assignee, text), newest activity first, with counts by severity. */

import { and, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AlertList, AlertQuery } from '../../../contract/alerts.ts';
import { severities } from '../../../contract/constants/events.ts';
import type { SpaceCaller } from '../../caller.ts';
import { alerts } from '../../db/schema/alerts.ts';
import { users } from '../../db/schema/users.ts';
import { anywhere } from '../shared/like.ts';
import { encodeTimeCursor, olderThan } from '../shared/time-cursor.ts';
import { alertColumns, alertView, assigneeJoin } from './alert-view.ts';

/** The conditions of every filter but severity (the counts are by severity). */
function conditions(sc: SpaceCaller, q: z.infer<typeof AlertQuery>): SQL[] {
  const where: SQL[] = [eq(alerts.spaceId, sc.space.id)];
  if (q.status && q.status.length > 0) where.push(inArray(alerts.status, q.status));
  if (q.ruleId) where.push(eq(alerts.ruleId, q.ruleId));
  if (q.assignee === 'none') where.push(isNull(alerts.assigneeId));
  else if (q.assignee === 'me') where.push(eq(alerts.assigneeId, sc.user.id));
  else if (q.assignee) where.push(eq(alerts.assigneeId, q.assignee));
  if (q.q) {
    const pattern = anywhere(q.q);
    where.push(
      or(
        ilike(alerts.title, pattern),
        ilike(alerts.ruleName, pattern),
        sql`${alerts.groupValues}::text ilike ${pattern}`,
      ) as SQL,
    );
  }
  return where;
}

/** A page of the space's alerts and the filtered alerts' counts by severity. */
export async function listAlerts(sc: SpaceCaller, q: z.infer<typeof AlertQuery>): Promise<AlertList> {
  const { db } = sc.deps;
  const base = conditions(sc, q);
  const where = [...base];
  if (q.severity && q.severity.length > 0) where.push(inArray(alerts.severity, q.severity));
  if (q.cursor) {
    const after = olderThan(alerts.lastSeen, alerts.id, q.cursor);
    if (after) where.push(after);
  }
  const rows = await db
    .select(alertColumns)
    .from(alerts)
    .leftJoin(users, assigneeJoin)
    .where(and(...where))
    .orderBy(desc(alerts.lastSeen), desc(alerts.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const counted = await db
    .select({ severity: alerts.severity, n: sql<number>`count(*)::int` })
    .from(alerts)
    .where(and(...base))
    .groupBy(alerts.severity);
  const counts = Object.fromEntries(severities.map((s) => [s, 0])) as AlertList['counts'];
  for (const row of counted) counts[row.severity] = row.n;
  return {
    items: page.map(alertView),
    nextCursor: rows.length > q.limit && last ? encodeTimeCursor(last.alert.lastSeen, last.alert.id) : null,
    counts,
  };
}
