/**
 * A rule firing for one group: adds to the group's alert while it is open or acknowledged (deduplication, by the
 * partial unique index on rule and group) or opens a new one; counts the new matching events, keeps the newest of
 * them as links, and records the opening in the triage record. Suppressed groups are skipped by the callers.
 */
import { sql } from 'drizzle-orm';
import { alertLimits } from '../../../../contract/constants/alerts.ts';
import { type Executor, rowsOf } from '../../../db/database.ts';
import { type AlertRow, type AlertRuleRow, alertEvents, alertRules, alerts } from '../../../db/schema/alerts.ts';
import { recordDecision, systemActor } from '../../triage/record.ts';
import { alertTitle, type Group, groupEventQuery } from './groups.ts';

/** A matching event as an alert keeps it: a link to the event log. */
export type EventRef = { time: Date; id: string };

/** What one evaluation found for one group. */
export type Firing = {
  rule: AlertRuleRow;
  group: Group;
  /** Matching events this firing adds (0 for a silence). */
  count: number;
  firstSeen: Date;
  lastSeen: Date;
  /** The newest of those events, to keep as links. */
  events: EventRef[];
  /** The distinct firewalls those events came from (null for events of no firewall). */
  firewalls: (string | null)[];
  /** Threshold rules: every matching event that arrived up to this is counted. */
  coveredUntil?: Date;
  now: Date;
};

/** The alert after a firing, and whether the firing opened it. */
export type Fired = { alert: AlertRow; opened: boolean };

/** The alert columns as drizzle names them, from a raw row. */
function alertOf(row: Record<string, unknown>): AlertRow {
  const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));
  return {
    id: row.id as string,
    spaceId: row.space_id as string,
    ruleId: row.rule_id as string | null,
    ruleName: row.rule_name as string,
    kind: row.kind as AlertRow['kind'],
    severity: row.severity as AlertRow['severity'],
    title: row.title as string,
    groupKey: row.group_key as string,
    groupValues: row.group_values as Record<string, string>,
    status: row.status as AlertRow['status'],
    assigneeId: row.assignee_id as string | null,
    snoozedUntil: date(row.snoozed_until),
    count: Number(row.count),
    kept: Number(row.kept),
    firstSeen: date(row.first_seen) as Date,
    lastSeen: date(row.last_seen) as Date,
    coveredUntil: date(row.covered_until),
    firewallId: row.firewall_id as string | null,
    mixedFirewalls: row.mixed_firewalls as boolean,
    eventQuery: row.event_query as string,
    lastNotifiedAt: date(row.last_notified_at),
    resolvedAt: date(row.resolved_at),
    createdAt: date(row.created_at) as Date,
    updatedAt: date(row.updated_at) as Date,
  };
}

/** Adds a firing to its group's alert or opens one; call it in the transaction that evaluated the rule. */
export async function recordFiring(tx: Executor, firing: Firing): Promise<Fired> {
  const { rule, group, now } = firing;
  const single = firing.firewalls.length === 1 ? (firing.firewalls[0] ?? null) : null;
  const mixed = firing.firewalls.length !== 1 || single === null;
  const title = alertTitle(rule.titleTemplate, rule.name, group.values, firing.count);
  const eventQuery = groupEventQuery(rule.query, group.values);
  const covered = firing.coveredUntil?.toISOString() ?? null;
  // One statement: insert, or add to the alert the unique index finds; `xmax = 0` tells an insert from an update.
  const result = await tx.execute(sql`
    insert into ${alerts} as a (space_id, rule_id, rule_name, kind, severity, title, group_key, group_values, status,
      count, first_seen, last_seen, covered_until, firewall_id, mixed_firewalls, event_query, created_at, updated_at)
    values (${rule.spaceId}, ${rule.id}, ${rule.name}, ${rule.kind}, ${rule.severity}, ${title}, ${group.key},
      ${JSON.stringify(group.values)}::jsonb, 'open', ${firing.count}, ${firing.firstSeen.toISOString()}::timestamptz,
      ${firing.lastSeen.toISOString()}::timestamptz, ${covered}::timestamptz, ${mixed ? null : single}::uuid, ${mixed},
      ${eventQuery}, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
    on conflict (rule_id, group_key) where status <> 'resolved' and rule_id is not null do update set
      count = a.count + excluded.count,
      first_seen = least(a.first_seen, excluded.first_seen),
      last_seen = greatest(a.last_seen, excluded.last_seen),
      covered_until = greatest(a.covered_until, excluded.covered_until),
      -- A WAF alert stays one firewall's only while every event came from that firewall.
      mixed_firewalls = a.mixed_firewalls or excluded.mixed_firewalls
        or a.firewall_id is distinct from excluded.firewall_id,
      firewall_id = case when a.mixed_firewalls or excluded.mixed_firewalls
        or a.firewall_id is distinct from excluded.firewall_id then null else a.firewall_id end,
      title = excluded.title, severity = excluded.severity, rule_name = excluded.rule_name,
      updated_at = excluded.updated_at
    returning *, (xmax = 0) as inserted`);
  const [row] = rowsOf<Record<string, unknown>>(result);
  if (!row) throw new Error('the alert upsert answered no row');
  const alert = alertOf(row);
  const opened = row.inserted === true;

  // Keep the newest events as links, up to the alert's allowance, and count them on the alert: one statement.
  const room = alertLimits.keptEvents - alert.kept;
  if (room > 0 && firing.events.length > 0) {
    const refs = JSON.stringify(firing.events.slice(0, room).map((e) => ({ t: e.time.toISOString(), id: e.id })));
    const [counted] = rowsOf<{ kept: number }>(
      await tx.execute(sql`
        with added as (
          insert into ${alertEvents} (alert_id, event_time, event_id)
          select ${alert.id}::uuid, r.t, r.id from jsonb_to_recordset(${refs}::jsonb) as r(t timestamptz, id uuid)
          on conflict do nothing
          returning 1
        )
        update ${alerts} set kept = kept + (select count(*) from added)::int where id = ${alert.id}
        returning kept`),
    );
    if (counted) alert.kept = Number(counted.kept);
  }
  if (opened) {
    await recordDecision(tx, {
      spaceId: rule.spaceId,
      subject: { type: 'alert', id: alert.id },
      decision: 'opened',
      actor: systemActor,
      reason: `${rule.name} fired`,
      scope: { ruleId: rule.id, groupKey: group.key },
      change: { count: firing.count },
      at: now,
    });
  }
  return { alert, opened };
}

/** Notes when a rule last fired: once per job or evaluation that fired it, not once per group. */
export async function markRuleFired(tx: Executor, ruleId: string, now: Date): Promise<void> {
  await tx.execute(
    sql`update ${alertRules} set last_fired_at = ${now.toISOString()}::timestamptz where id = ${ruleId}`,
  );
}
