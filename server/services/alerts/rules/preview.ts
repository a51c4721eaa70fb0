/**
 * A rule tried on stored events before it is saved: "would have fired N times in the last 24 h, for these groups".
 * Match rules fire once per matching event; threshold rules once per minute whose window was over the threshold
 * (the scheduler's cadence); a silence rule says whether its source or firewall is silent now. A preview reads the
 * events in the search lane (kind `preview`): it waits its turn behind the space's other searches, not in front of
 * other spaces', and each of its statements has the preview's budget.
 */
import { and, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AlertRulePreview, AlertRulePreviewBody } from '../../../../contract/alert-rules.ts';
import type { SpaceCaller } from '../../../caller.ts';
import { type Executor, rowsOf } from '../../../db/database.ts';
import type { AlertRuleRow } from '../../../db/schema/alerts.ts';
import { events } from '../../../db/schema/events.ts';
import { fieldError } from '../../../errors.ts';
import { compileQuery } from '../../events/compile-query.ts';
import { parsedQuery } from '../../events/filters.ts';
import { alertTitle, groupColumnSql, groupEventQuery, groupJoinsSql, groupKeyOf } from '../detection/groups.ts';
import { silenceState } from '../detection/silence.ts';
import { thresholdHits } from '../detection/threshold.ts';

/** Groups listed in a preview. */
const groupsShown = 100;

type Body = z.infer<typeof AlertRulePreviewBody>;

/** The preview of a rule over the last `hours`. */
export async function previewRule(sc: SpaceCaller, body: Body): Promise<AlertRulePreview> {
  const to = sc.deps.now();
  const from = new Date(to.getTime() - body.hours * 3_600_000);
  const name = 'This rule';
  const template = body.titleTemplate ?? null;
  const base = { from: from.toISOString(), to: to.toISOString() };
  const inLane = <T>(work: (db: Executor) => Promise<T>) => sc.deps.searches.run('preview', sc.space.id, work);
  if (body.kind === 'silence') {
    const rule = {
      spaceId: sc.space.id,
      sourceId: body.sourceId ?? null,
      firewallId: body.firewallId ?? null,
      windowMinutes: body.windowMinutes ?? 1,
      createdAt: from,
    } as AlertRuleRow;
    const state = await inLane((db) => silenceState(db, rule, to));
    if (!state)
      throw fieldError(body.sourceId ? 'sourceId' : 'firewallId', 'This space has no such source or firewall.');
    const at = state.lastEventAt?.toISOString() ?? to.toISOString();
    return {
      ...base,
      firings: state.silent ? 1 : 0,
      alerts: state.silent ? 1 : 0,
      groups: state.silent
        ? [
            {
              groupKey: state.group.key,
              group: state.group.values,
              title: template ?? `No events from ${state.name} for ${rule.windowMinutes} minutes`,
              firings: 1,
              events: 0,
              firstSeen: at,
              lastSeen: at,
            },
          ]
        : [],
      eventQuery: '',
    };
  }
  const ast = parsedQuery(body.query, 'query');
  const eventQuery = body.query;
  if (body.kind === 'threshold') {
    const rule = {
      spaceId: sc.space.id,
      query: body.query,
      groupBy: body.groupBy,
      threshold: body.threshold ?? 0,
      windowMinutes: body.windowMinutes ?? 1,
    };
    const hits = await inLane((db) => thresholdHits(db, rule, from, to, groupsShown));
    const groups = hits.map((hit) => ({
      groupKey: hit.group.key,
      group: hit.group.values,
      title: alertTitle(template, name, hit.group.values, hit.events),
      firings: hit.firings,
      events: hit.events,
      firstSeen: new Date(hit.firstEnd.getTime() - rule.windowMinutes * 60_000).toISOString(),
      lastSeen: hit.firstEnd.toISOString(),
    }));
    return {
      ...base,
      firings: groups.reduce((sum, g) => sum + g.firings, 0),
      alerts: groups.length,
      groups,
      eventQuery,
    };
  }
  // Match: every matching event fires; one alert per group.
  const fields = body.groupBy;
  const where = and(
    sql`${events.spaceId} = ${sc.space.id}`,
    gte(events.time, from),
    lt(events.time, to),
    compileQuery(ast, events),
  ) as SQL;
  const columns = fields.map((field, i) => sql`${groupColumnSql(field)} as ${sql.raw(`g${i}`)}`);
  const rows = rowsOf<Record<string, unknown>>(
    await inLane((db) =>
      db.execute(sql`
      select ${sql.join([...columns, sql`count(*)::int as n`, sql`min(${events.time}) as first`, sql`max(${events.time}) as last`], sql`, `)},
        count(*) over ()::int as groups, (sum(count(*)) over ())::int as total
      from ${events} ${groupJoinsSql(fields)}
      where ${where}
      ${
        fields.length > 0
          ? sql`group by ${sql.join(
              fields.map((_, i) => sql.raw(`g${i}`)),
              sql`, `,
            )}`
          : sql``
      }
      having count(*) > 0
      order by n desc
      limit ${groupsShown}`),
    ),
  );
  const groups = rows.map((row) => {
    const values: Record<string, string> = {};
    fields.forEach((field, i) => {
      values[field] = String(row[`g${i}`] ?? '');
    });
    const n = Number(row.n);
    return {
      groupKey: groupKeyOf(fields, values),
      group: values,
      title: alertTitle(template, name, values, n),
      firings: n,
      events: n,
      firstSeen: new Date(row.first as string).toISOString(),
      lastSeen: new Date(row.last as string).toISOString(),
    };
  });
  const total = Number(rows[0]?.groups ?? 0);
  return {
    ...base,
    firings: Number(rows[0]?.total ?? 0),
    alerts: total,
    groups,
    eventQuery: groupEventQuery(eventQuery, {}),
  };
}
