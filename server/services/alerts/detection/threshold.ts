/**
 * Threshold rules: "more than N events matching QUERY within W minutes, per group". An evaluation at `at` looks at
 * every window ending on a minute since the rule was last evaluated (catching up after every process was down, at
 * most alertLimits.catchUpMinutes back) and at the window ending at `at`; a group fires when any of them holds more
 * than N events. Per-minute counts come from one statement; each firing group's new events are then counted exactly.
 */
import { and, gt, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { AlertGroupField } from '../../../../contract/alert-rules.ts';
import { alertLimits } from '../../../../contract/constants/alerts.ts';
import { type Executor, rowsOf } from '../../../db/database.ts';
import type { AlertRuleRow } from '../../../db/schema/alerts.ts';
import { events } from '../../../db/schema/events.ts';
import { compileQuery } from '../../events/compile-query.ts';
import { parsedQuery } from '../../events/filters.ts';
import type { EventRef } from './fire.ts';
import { type Group, groupColumnSql, groupJoinsSql, groupKeyOf } from './groups.ts';

const minuteMs = 60_000;
/** Firing groups written per evaluation; any others fire at the next one. */
const groupsPerEvaluation = 200;
/** Events of one firing kept as links. */
const refsPerFiring = 100;

/**
 * A group over the threshold: the window end where it first was, its most events in one window, how many of the
 * window ends were over (firings), and its events from `from` on.
 */
export type ThresholdHit = { group: Group; firstEnd: Date; most: number; firings: number; events: number };

/** The index of the first element of a sorted array that is not below `value`. */
function lowerBound(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? 0) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The rule's condition over the events table: its space, its query and a time range. */
function conditionOf(rule: Pick<AlertRuleRow, 'spaceId' | 'query'>, from: Date, to: Date | null): SQL {
  return and(
    sql`${events.spaceId} = ${rule.spaceId}`,
    gte(events.time, from),
    ...(to ? [lt(events.time, to)] : []),
    compileQuery(parsedQuery(rule.query, 'query'), events),
  ) as SQL;
}

/** The groups of `rule` over its threshold in any window ending in (from, at]. */
export async function thresholdHits(
  db: Executor,
  rule: Pick<AlertRuleRow, 'spaceId' | 'query' | 'groupBy' | 'threshold' | 'windowMinutes'>,
  from: Date,
  at: Date,
  limit = groupsPerEvaluation,
): Promise<ThresholdHit[]> {
  const windowMs = (rule.windowMinutes ?? 1) * minuteMs;
  const threshold = rule.threshold ?? 0;
  const fields = rule.groupBy;
  const columns = fields.map((field, i) => sql`${groupColumnSql(field)} as ${sql.raw(`g${i}`)}`);
  const lo = new Date(from.getTime() - windowMs);
  const result = await db.execute(sql`
    select ${sql.join([...columns, sql`date_bin('1 minute', ${events.time}, timestamptz '2000-01-01') as m`], sql`, `)},
      count(*)::int as n
    from ${events} ${groupJoinsSql(fields)}
    where ${conditionOf(rule, lo, at)}
    group by ${sql.join([...fields.map((_, i) => sql.raw(`g${i}`)), sql.raw('m')], sql`, `)}`);
  // Per group: its minute counts.
  const byGroup = new Map<string, { values: Record<string, string>; minutes: Map<number, number> }>();
  for (const row of rowsOf<Record<string, unknown>>(result)) {
    const values: Record<string, string> = {};
    fields.forEach((field, i) => {
      values[field] = String(row[`g${i}`] ?? '');
    });
    const key = groupKeyOf(fields, values);
    const entry = byGroup.get(key) ?? { values, minutes: new Map<number, number>() };
    const minute = new Date(row.m as string).getTime();
    entry.minutes.set(minute, (entry.minutes.get(minute) ?? 0) + Number(row.n));
    byGroup.set(key, entry);
  }
  // The window ends to try: each minute boundary after `from`, and `at` itself.
  const ends: number[] = [];
  for (let t = Math.floor(from.getTime() / minuteMs) * minuteMs + minuteMs; t < at.getTime(); t += minuteMs)
    ends.push(t);
  ends.push(at.getTime());
  const hits: ThresholdHit[] = [];
  for (const [key, { values, minutes }] of byGroup) {
    // Prefix sums over the group's minutes, so each window's count is two binary searches.
    const sorted = [...minutes.entries()].sort((a, b) => a[0] - b[0]);
    const starts = sorted.map(([minute]) => minute);
    const prefix = [0];
    for (const [, n] of sorted) prefix.push((prefix[prefix.length - 1] ?? 0) + n);
    const before = (t: number) => prefix[lowerBound(starts, t)] ?? 0;
    let most = 0;
    let firings = 0;
    let firstEnd: number | null = null;
    for (const end of ends) {
      const sum = before(end) - before(end - windowMs);
      if (sum > most) most = sum;
      if (sum > threshold) {
        firings++;
        firstEnd ??= end;
      }
    }
    const events = (prefix[prefix.length - 1] ?? 0) - before(from.getTime());
    if (firstEnd !== null) hits.push({ group: { key, values }, firstEnd: new Date(firstEnd), most, firings, events });
  }
  hits.sort((a, b) => b.most - a.most);
  return hits.slice(0, limit);
}

/** What a group's events add to its alert. */
export type GroupEvents = {
  count: number;
  first: Date | null;
  last: Date | null;
  /** The latest arrival among them: the alert has counted every event that arrived up to this. */
  receivedUntil: Date | null;
  firewalls: (string | null)[];
  refs: EventRef[];
};

/**
 * One group's matching events from `from` on that arrived after `receivedAfter` (the alert's coverage; null for a
 * new alert): exact count, span, firewalls, newest events. Coverage goes by arrival, so an event that arrives late
 * (its time before the last evaluation) is still counted once, and none twice.
 */
export async function groupEvents(
  db: Executor,
  rule: AlertRuleRow,
  values: Record<string, string>,
  span: { from: Date; receivedAfter: Date | null },
): Promise<GroupEvents> {
  const fields = rule.groupBy as AlertGroupField[];
  const same = fields.map((field) => sql`${groupColumnSql(field)} = ${values[field] ?? ''}`);
  if (span.receivedAfter) same.push(gt(events.receivedAt, span.receivedAfter));
  // No upper bound on the time: every matching event that has arrived is counted now, so the coverage by arrival
  // never passes over an event whose time is after the evaluated moment but which arrived with the ones counted.
  const where = and(conditionOf(rule, span.from, null), ...same) as SQL;
  const joins = groupJoinsSql(fields);
  const [summary] = rowsOf<{
    n: number;
    first: string | null;
    last: string | null;
    received: string | null;
    firewalls: (string | null)[];
  }>(
    await db.execute(sql`
      select count(*)::int as n, min(${events.time}) as first, max(${events.time}) as last,
        max(${events.receivedAt}) as received, array_agg(distinct ${events.firewallId}) as firewalls
      from ${events} ${joins} where ${where}`),
  );
  if (!summary || summary.n === 0)
    return { count: 0, first: null, last: null, receivedUntil: null, firewalls: [], refs: [] };
  const refs = rowsOf<{ time: string; id: string }>(
    await db.execute(sql`
      select ${events.time} as time, ${events.id} as id from ${events} ${joins} where ${where}
      order by ${events.time} desc limit ${refsPerFiring}`),
  ).map((r) => ({ time: new Date(r.time), id: r.id }));
  return {
    count: summary.n,
    first: summary.first ? new Date(summary.first) : null,
    last: summary.last ? new Date(summary.last) : null,
    receivedUntil: summary.received ? new Date(summary.received) : null,
    firewalls: summary.firewalls ?? [],
    refs,
  };
}

/** Where an evaluation at `at` starts: the last one's end, at most the catch-up allowance back. */
export function evaluationStart(rule: Pick<AlertRuleRow, 'evaluatedUntil' | 'createdAt'>, at: Date): Date {
  const earliest = at.getTime() - alertLimits.catchUpMinutes * minuteMs;
  const last = (rule.evaluatedUntil ?? rule.createdAt).getTime();
  return new Date(Math.max(earliest, Math.min(last, at.getTime())));
}
