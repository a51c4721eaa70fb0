/**
 * Silence rules: an alert when a log source, or a firewall, has sent nothing for `windowMinutes` (a connector or a
 * shipper that died is an incident too). The alert resolves itself when events arrive again.
 */
import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../../db/database.ts';
import { type AlertRow, type AlertRuleRow, alerts } from '../../../db/schema/alerts.ts';
import { events } from '../../../db/schema/events.ts';
import { firewalls } from '../../../db/schema/firewalls.ts';
import { sources } from '../../../db/schema/sources.ts';
import type { Group } from './groups.ts';

/** What the watched source or firewall looks like at `at`. */
export type SilenceState = {
  group: Group;
  /** Its name, for the title. */
  name: string;
  /** When it last sent an event (null: never). */
  lastEventAt: Date | null;
  /** True when nothing came for the rule's window (counted from the rule's creation if nothing ever came). */
  silent: boolean;
};

/** The watched source's or firewall's last event and whether it has been silent for the window. */
export async function silenceState(db: Executor, rule: AlertRuleRow, at: Date): Promise<SilenceState | null> {
  const windowMs = (rule.windowMinutes ?? 1) * 60_000;
  let group: Group;
  let name: string;
  let last: string | null;
  if (rule.sourceId) {
    const [source] = await db.select({ name: sources.name }).from(sources).where(eq(sources.id, rule.sourceId));
    if (!source) return null;
    // Arrival, not event time: a shipper sending old lines is alive.
    const [row] = rowsOf<{ last: string | null }>(
      await db.execute(sql`select max(${events.receivedAt}) as last from ${events}
        where ${events.spaceId} = ${rule.spaceId} and ${events.sourceId} = ${rule.sourceId}`),
    );
    group = { key: `source=${rule.sourceId}`, values: { source: rule.sourceId } };
    name = source.name;
    last = row?.last ?? null;
  } else if (rule.firewallId) {
    const [firewall] = await db
      .select({ name: firewalls.name })
      .from(firewalls)
      .where(eq(firewalls.id, rule.firewallId));
    if (!firewall) return null;
    const [row] = rowsOf<{ last: string | null }>(
      await db.execute(sql`select max(${events.time}) as last from ${events}
        where ${events.spaceId} = ${rule.spaceId} and ${events.firewallId} = ${rule.firewallId}`),
    );
    group = { key: `firewall=${rule.firewallId}`, values: { firewall: rule.firewallId } };
    name = firewall.name;
    last = row?.last ?? null;
  } else {
    return null;
  }
  const lastEventAt = last ? new Date(last) : null;
  const since = Math.max(lastEventAt?.getTime() ?? 0, rule.createdAt.getTime());
  return { group, name, lastEventAt, silent: at.getTime() - since >= windowMs };
}

/** The rule's alert that is open or acknowledged, if any (a silence rule has one group). */
export async function activeAlertOf(db: Executor, rule: AlertRuleRow): Promise<AlertRow | null> {
  const [row] = await db
    .select()
    .from(alerts)
    .where(and(eq(alerts.ruleId, rule.id), ne(alerts.status, 'resolved'), isNotNull(alerts.ruleId)))
    .for('update');
  return row ?? null;
}
