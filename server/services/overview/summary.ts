/**
 * The overview's summary strip (docs/overview.md): requests, blocked requests, block rate and distinct
 * client addresses over a range and over the period of equal length just before it, from the rollups in one
 * statement; and the alerts and critical findings open now with how many of them began in each period.
 */
import { type AnyColumn, and, eq, gte, or, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { OverviewSummary, SummaryQuery } from '../../../contract/overview.ts';
import type { SpaceCaller } from '../../caller.ts';
import { rowsOf } from '../../db/database.ts';
import { alerts } from '../../db/schema/alerts.ts';
import { findings } from '../../db/schema/vulns.ts';
import { fieldError } from '../../errors.ts';
import { rollupDistinctSql } from '../dashboards/query-sql.ts';
import { parsedQuery } from '../events/filters.ts';
import { rollupHistogram } from '../events/tiers.ts';

const DAY = 86_400_000;

/** A window of events: both ends inclusive, as the event log reads a range. */
type Window = { from: number; to: number };

/**
 * The windows of a range: the range itself [from, to] and the one before it, of equal length, ending just before
 * `from` (1 ms, the events' resolution), so no event counts in both.
 */
export function summaryWindows(from: number, to: number): { current: Window; previous: Window } {
  return { current: { from, to }, previous: { from: from - (to - from), to: from - 1 } };
}

/** Requests, blocked and distinct client addresses of every event in a window, as scalar subqueries. */
function eventCounts(spaceId: string, window: Window, label: string): SQL {
  const all = parsedQuery('', 'q');
  // Any bucketing sums to the same total; days are the coarsest tier, so the fewest rollup rows are read.
  const histogram = rollupHistogram(spaceId, all, window, { tier: 'day', origin: 0, intervalSeconds: 86_400 });
  if (!histogram) throw new Error('The rollups answer every query without terms');
  const distinct = rollupDistinctSql(spaceId, all, window, 'ip', 'ip');
  return sql`select ${label}::text as w, coalesce(sum(h.total), 0)::bigint as requests,
    coalesce(sum(h.blocked), 0)::bigint as blocked, (select d.v from (${distinct}) as d)::bigint as ips
    from (${histogram}) as h`;
}

/** What a table of states (alerts, findings) gives the strip: its columns and which rows count. */
type Stateful = { status: AnyColumn; firstSeen: AnyColumn; rows: SQL };

/**
 * Rows `open` now, and rows first seen in each window (whatever their status now), in one pass over the rows that
 * are open or began since the previous window started.
 */
async function openAndNew(sc: SpaceCaller, table: PgTable, c: Stateful, current: Window, previous: Window) {
  const within = (w: Window) => sql`${c.firstSeen} >= ${new Date(w.from)} and ${c.firstSeen} <= ${new Date(w.to)}`;
  const [row] = await sc.deps.db
    .select({
      now: sql<number>`count(*) filter (where ${c.status} = 'open')::int`,
      current: sql<number>`count(*) filter (where ${within(current)})::int`,
      previous: sql<number>`count(*) filter (where ${within(previous)})::int`,
    })
    .from(table)
    .where(and(c.rows, or(eq(c.status, 'open'), gte(c.firstSeen, new Date(previous.from)))));
  return {
    now: Number(row?.now ?? 0),
    new: { current: Number(row?.current ?? 0), previous: Number(row?.previous ?? 0) },
  };
}

/** Blocked out of requests, or null with no requests. */
const rate = (blocked: number, requests: number) => (requests > 0 ? blocked / requests : null);

/** The summary strip's numbers over `from`..`to` (default: the last 24 hours) and the period before. */
export async function overviewSummary(sc: SpaceCaller, q: z.infer<typeof SummaryQuery>): Promise<OverviewSummary> {
  const to = q.to ? Date.parse(q.to) : sc.deps.now().getTime();
  const from = q.from ? Date.parse(q.from) : to - DAY;
  if (!(from < to)) throw fieldError('from', 'The start of the range must be before its end.');
  const { current, previous } = summaryWindows(from, to);
  const spaceId = sc.space.id;
  const statement = sql`${eventCounts(spaceId, current, 'current')} union all ${eventCounts(spaceId, previous, 'previous')}`;
  type Row = { w: 'current' | 'previous'; requests: number | string; blocked: number | string; ips: number | string };
  const [rows, openAlerts, criticalFindings] = await Promise.all([
    sc.deps.searches.run('histogram', sc.space.id, async (db) => rowsOf<Row>(await db.execute(statement))),
    // Alerts: open now; first seen (their first matching event) in each window.
    openAndNew(
      sc,
      alerts,
      { status: alerts.status, firstSeen: alerts.firstSeen, rows: eq(alerts.spaceId, spaceId) },
      current,
      previous,
    ),
    // Critical findings: open now; first found in each window.
    openAndNew(
      sc,
      findings,
      {
        status: findings.status,
        firstSeen: findings.firstSeen,
        rows: and(eq(findings.spaceId, spaceId), eq(findings.severity, 'critical')) as SQL,
      },
      current,
      previous,
    ),
  ]);
  const of = (w: Row['w']) => {
    const row = rows.find((r) => r.w === w);
    return { requests: Number(row?.requests ?? 0), blocked: Number(row?.blocked ?? 0), ips: Number(row?.ips ?? 0) };
  };
  const now = of('current');
  const before = of('previous');
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    previousFrom: new Date(previous.from).toISOString(),
    requests: { current: now.requests, previous: before.requests },
    blocked: { current: now.blocked, previous: before.blocked },
    blockRate: { current: rate(now.blocked, now.requests), previous: rate(before.blocked, before.requests) },
    clientIps: { current: now.ips, previous: before.ips },
    openAlerts,
    criticalFindings,
  };
}
