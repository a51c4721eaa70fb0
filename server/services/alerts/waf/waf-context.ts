/** A WAF alert's context: its firewall now and when the alert opened, and the triggering requests. */
import { and, desc, eq, lte } from 'drizzle-orm';
import type { WafAlertContext } from '../../../../contract/waf.ts';
import type { SpaceCaller } from '../../../caller.ts';
import { alertEvents, alerts } from '../../../db/schema/alerts.ts';
import { eventRaw, events } from '../../../db/schema/events.ts';
import { firewallVersions } from '../../../db/schema/firewalls.ts';
import { notFound } from '../../../errors.ts';
import { eventWithRaw, rawOfEvent } from '../../events/filters.ts';
import { firewallOf } from '../../firewalls/view.ts';
import { wafRequestOf } from './waf-requests.ts';

/** Requests shown with a WAF alert, newest first. */
const requestsShown = 50;

/** The context of an alert whose events all came from firewall `wafId`; 404 when it is not that firewall's. */
export async function wafAlertContext(sc: SpaceCaller, id: string, wafId: string): Promise<WafAlertContext> {
  const { db } = sc.deps;
  const [alert] = await db
    .select()
    .from(alerts)
    .where(and(eq(alerts.id, id), eq(alerts.spaceId, sc.space.id)));
  if (!alert || alert.mixedFirewalls || alert.firewallId !== wafId) throw notFound('WAF alert');
  const firewall = await firewallOf(db, sc.space.id, wafId);
  const [then] = await db
    .select({
      version: firewallVersions.version,
      settings: firewallVersions.settings,
      createdAt: firewallVersions.createdAt,
    })
    .from(firewallVersions)
    .where(and(eq(firewallVersions.firewallId, wafId), lte(firewallVersions.createdAt, alert.firstSeen)))
    .orderBy(desc(firewallVersions.version))
    .limit(1);
  const rows = await db
    .select(eventWithRaw)
    .from(alertEvents)
    .innerJoin(
      events,
      and(eq(events.spaceId, sc.space.id), eq(events.time, alertEvents.eventTime), eq(events.id, alertEvents.eventId)),
    )
    .leftJoin(eventRaw, rawOfEvent)
    .where(eq(alertEvents.alertId, alert.id))
    .orderBy(desc(alertEvents.eventTime))
    .limit(requestsShown);
  return {
    firewall: { id: firewall.id, name: firewall.name, mode: firewall.settings.mode, version: firewall.version },
    atFirstSeen: then
      ? { version: then.version, mode: then.settings.mode, createdAt: then.createdAt.toISOString() }
      : null,
    requests: rows.map(({ raw, ...event }) => wafRequestOf(event, raw)),
  };
}
