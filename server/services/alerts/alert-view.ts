/** An alert as the API answers it, with its assignee's name: the columns every alert read selects. */
import { eq } from 'drizzle-orm';
import type { Alert } from '../../../contract/alerts.ts';
import { type AlertRow, alerts } from '../../db/schema/alerts.ts';
import { users } from '../../db/schema/users.ts';

/** The select list of an alert and its assignee's name (left join on users). */
export const alertColumns = { alert: alerts, assigneeName: users.name } as const;

/** The join that names the assignee. */
export const assigneeJoin = eq(users.id, alerts.assigneeId);

/** A row as answered. */
export function alertView(row: { alert: AlertRow; assigneeName: string | null }): Alert {
  const a = row.alert;
  return {
    id: a.id,
    spaceId: a.spaceId,
    ruleId: a.ruleId,
    ruleName: a.ruleName,
    kind: a.kind,
    severity: a.severity,
    title: a.title,
    groupKey: a.groupKey,
    group: a.groupValues,
    status: a.status,
    assignee: a.assigneeId ? { id: a.assigneeId, name: row.assigneeName } : null,
    snoozedUntil: a.snoozedUntil?.toISOString() ?? null,
    count: a.count,
    firstSeen: a.firstSeen.toISOString(),
    lastSeen: a.lastSeen.toISOString(),
    firewallId: a.mixedFirewalls ? null : a.firewallId,
    eventQuery: a.eventQuery,
    resolvedAt: a.resolvedAt?.toISOString() ?? null,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}
