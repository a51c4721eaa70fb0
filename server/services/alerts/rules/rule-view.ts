/** An alert rule as the API answers it: webhook secrets reduced to a hint, with its active alerts counted. */
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AlertRule } from '../../../../contract/alert-rules.ts';
import type { Channel } from '../../../../contract/notifications.ts';
import type { Executor } from '../../../db/database.ts';
import { type AlertRuleRow, alertRules, alerts, type StoredChannel } from '../../../db/schema/alerts.ts';
import { notFound } from '../../../errors.ts';

/** A stored channel as answered: the secret's last four characters only. */
export function channelView(channel: StoredChannel): Channel {
  if (channel.kind === 'email') return { kind: 'email', to: channel.to };
  return { kind: 'webhook', url: channel.url, secretHint: `…${channel.secret.slice(-4)}` };
}

/** A rule row as answered, given its count of open and acknowledged alerts. */
export function ruleView(row: AlertRuleRow, activeAlerts: number): AlertRule {
  return {
    id: row.id,
    spaceId: row.spaceId,
    name: row.name,
    enabled: row.enabled,
    severity: row.severity,
    kind: row.kind,
    query: row.query,
    threshold: row.threshold,
    windowMinutes: row.windowMinutes,
    groupBy: row.groupBy,
    sourceId: row.sourceId,
    firewallId: row.firewallId,
    titleTemplate: row.titleTemplate,
    renotifyMinutes: row.renotifyMinutes,
    autoResolveMinutes: row.autoResolveMinutes,
    channels: row.channels.map(channelView),
    createdBy: { id: row.createdById, name: row.createdByName },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastFiredAt: row.lastFiredAt?.toISOString() ?? null,
    activeAlerts,
  };
}

/** Open and acknowledged alerts per rule, for the rules list. */
export async function activeAlertCounts(db: Executor, ruleIds: string[]): Promise<Map<string, number>> {
  if (ruleIds.length === 0) return new Map();
  const rows = await db
    .select({ ruleId: alerts.ruleId, n: sql<number>`count(*)::int` })
    .from(alerts)
    .where(and(inArray(alerts.ruleId, ruleIds), ne(alerts.status, 'resolved')))
    .groupBy(alerts.ruleId);
  return new Map(rows.map((r) => [r.ruleId ?? '', r.n]));
}

/** One rule's row in a space (locked for the transaction with `lock`); 404 for another space's or none. */
export async function ruleRowOf(db: Executor, spaceId: string, id: string, lock = false): Promise<AlertRuleRow> {
  const query = db
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.spaceId, spaceId), eq(alertRules.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('alert rule');
  return row;
}
