/** One alert with its timeline (its own decisions and the suppressions made from it), kept events, notifications and rule. */
import { and, desc, eq } from 'drizzle-orm';
import type { AlertDetail } from '../../../contract/alerts.ts';
import type { SpaceCaller } from '../../caller.ts';
import { alertEvents, alerts } from '../../db/schema/alerts.ts';
import { events } from '../../db/schema/events.ts';
import { users } from '../../db/schema/users.ts';
import { notFound } from '../../errors.ts';
import { eventSummaryView } from '../events/filters.ts';
import { deliveriesOfAlert } from '../notifications/deliveries.ts';
import { timelineOf } from '../triage/decisions.ts';
import { triageView } from '../triage/record.ts';
import { alertColumns, alertView, assigneeJoin } from './alert-view.ts';
import { activeAlertCounts, ruleRowOf, ruleView } from './rules/rule-view.ts';

/** Kept events shown with an alert, newest first (the event log link shows them all). */
const eventsShown = 100;

/** The alert, its timeline, its newest kept events, its deliveries and its rule. */
export async function getAlert(sc: SpaceCaller, id: string): Promise<AlertDetail> {
  const { db } = sc.deps;
  const [row] = await db
    .select(alertColumns)
    .from(alerts)
    .leftJoin(users, assigneeJoin)
    .where(and(eq(alerts.id, id), eq(alerts.spaceId, sc.space.id)));
  if (!row) throw notFound('alert');
  const alert = row.alert;
  const timeline = await timelineOf(
    db,
    sc.space.id,
    { type: 'alert', id: alert.id },
    { rule: alert.ruleId, limit: 1_000 },
  );
  const kept = await db
    .select({ event: events })
    .from(alertEvents)
    .innerJoin(
      events,
      and(eq(events.spaceId, sc.space.id), eq(events.time, alertEvents.eventTime), eq(events.id, alertEvents.eventId)),
    )
    .where(eq(alertEvents.alertId, alert.id))
    .orderBy(desc(alertEvents.eventTime))
    .limit(eventsShown);
  let rule: AlertDetail['rule'] = null;
  if (alert.ruleId) {
    const ruleRow = await ruleRowOf(db, sc.space.id, alert.ruleId).catch(() => null);
    if (ruleRow) rule = ruleView(ruleRow, (await activeAlertCounts(db, [ruleRow.id])).get(ruleRow.id) ?? 0);
  }
  return {
    ...alertView(row),
    timeline: timeline.map(triageView),
    events: kept.map((k) => eventSummaryView(k.event)),
    eventsKept: alert.kept,
    deliveries: await deliveriesOfAlert(db, alert.id),
    rule,
  };
}
