/**
 * Working alerts (analysts and up): acknowledge, resolve, reopen, assign, snooze (the alert is acknowledged until
 * the time passes, then open again), notes in Markdown, and "do not alert on this group for N days". Each decision
 * goes to the shared triage record with its reason, and each change to the audit log, in the change's transaction.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Alert, BulkAlertBody, NoteBody, SuppressBody, UpdateAlertBody } from '../../../contract/alerts.ts';
import { alertLimits } from '../../../contract/constants/alerts.ts';
import type { TriageEntry } from '../../../contract/triage.ts';
import type { SpaceCaller } from '../../caller.ts';
import type { Executor } from '../../db/database.ts';
import { type AlertRow, alertRules, alerts } from '../../db/schema/alerts.ts';
import { memberships } from '../../db/schema/memberships.ts';
import { users } from '../../db/schema/users.ts';
import { ApiError, fieldError, notFound } from '../../errors.ts';
import { recordActivity } from '../activity/record.ts';
import { isUniqueViolation } from '../shared/db-errors.ts';
import { recordDecision, triageView } from '../triage/record.ts';
import { alertColumns, alertView, assigneeJoin } from './alert-view.ts';
import { notifyNews } from './detection/notify-firing.ts';
import { SUPPRESSED } from './detection/suppressions.ts';

type Change = z.infer<typeof UpdateAlertBody>;

/** The space's alert, locked for the change; 404 for another space's. */
async function lockedAlert(tx: Executor, spaceId: string, id: string): Promise<AlertRow> {
  const [row] = await tx
    .select()
    .from(alerts)
    .where(and(eq(alerts.id, id), eq(alerts.spaceId, spaceId)))
    .for('update');
  if (!row) throw notFound('alert');
  return row;
}

/** Checks a change before any alert is touched: the assignee is a member, the snooze is ahead and not too far. */
async function checkChange(tx: Executor, sc: SpaceCaller, change: Change, now: Date): Promise<void> {
  if (change.assigneeId) {
    const [member] = await tx
      .select({ id: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.spaceId, sc.space.id), eq(memberships.userId, change.assigneeId)));
    if (!member) throw fieldError('assigneeId', 'Assign the alert to a member of this space.');
  }
  if (change.snoozedUntil) {
    const until = Date.parse(change.snoozedUntil);
    if (until <= now.getTime()) throw fieldError('snoozedUntil', 'Snooze until a time in the future.');
    if (until > now.getTime() + alertLimits.snoozeDays * 86_400_000)
      throw fieldError('snoozedUntil', `Snooze for at most ${alertLimits.snoozeDays} days.`);
  }
}

/** Applies one change to one locked alert: its decisions, its audit record, a resolved notification. */
async function applyChange(tx: Executor, sc: SpaceCaller, before: AlertRow, change: Change, now: Date) {
  const set: Partial<AlertRow> = {};
  const decisions: { decision: string; change: Record<string, unknown>; until?: Date | null }[] = [];
  const snoozeUntil = change.snoozedUntil ? new Date(change.snoozedUntil) : null;
  let status = change.status ?? before.status;
  if (snoozeUntil && status === 'open') status = 'acknowledged'; // Snoozing takes the alert off the open list.
  if (status !== before.status) {
    set.status = status;
    set.resolvedAt = status === 'resolved' ? now : null;
    if (status !== 'acknowledged') set.snoozedUntil = null;
    const decision = status === 'open' ? 'reopened' : status;
    decisions.push({ decision, change: { status: { from: before.status, to: status } } });
  }
  // A resolved alert has nothing to snooze (a bulk snooze passes over it).
  if (change.snoozedUntil !== undefined && status !== 'resolved') {
    set.snoozedUntil = snoozeUntil;
    if (snoozeUntil) {
      decisions.push({ decision: 'snoozed', change: {}, until: snoozeUntil });
    } else if (before.snoozedUntil) {
      decisions.push({ decision: 'unsnoozed', change: {} });
    }
  }
  if (change.assigneeId !== undefined && change.assigneeId !== before.assigneeId) {
    set.assigneeId = change.assigneeId;
    decisions.push({
      decision: change.assigneeId ? 'assigned' : 'unassigned',
      change: { assigneeId: { from: before.assigneeId, to: change.assigneeId } },
    });
  }
  if (decisions.length === 0) return before;
  let after: AlertRow | undefined;
  try {
    [after] = await tx
      .update(alerts)
      .set({ ...set, updatedAt: now })
      .where(eq(alerts.id, before.id))
      .returning();
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError(
        409,
        'alert_reopened_elsewhere',
        'This group has a newer alert that is still open; work that one instead of reopening this one.',
      );
    throw error;
  }
  if (!after) throw notFound('alert');
  for (const d of decisions) {
    await recordDecision(tx, {
      spaceId: sc.space.id,
      subject: { type: 'alert', id: before.id },
      decision: d.decision,
      actor: sc.actor,
      reason: change.reason,
      until: d.until ?? null,
      change: d.change,
      at: now,
    });
  }
  await recordActivity(tx, sc.actor, {
    spaceId: sc.space.id,
    action: 'alert.update',
    objectType: 'alert',
    objectId: before.id,
    change: { decisions: decisions.map((d) => d.decision), ...(change.reason ? { reason: change.reason } : {}) },
  });
  if (after.status === 'resolved' && before.status !== 'resolved' && after.ruleId) {
    const [rule] = await tx.select().from(alertRules).where(eq(alertRules.id, after.ruleId));
    if (rule) await notifyNews(tx, sc.deps, { alert: after, rule, news: 'alert.resolved', now });
  }
  return after;
}

/** One alert as answered, with its assignee's name. */
async function answered(db: Executor, ids: string[]): Promise<Alert[]> {
  if (ids.length === 0) return [];
  const rows = await db.select(alertColumns).from(alerts).leftJoin(users, assigneeJoin).where(inArray(alerts.id, ids));
  const byId = new Map(rows.map((r) => [r.alert.id, alertView(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Changes one alert's status, assignee or snooze, with why. */
export async function updateAlert(sc: SpaceCaller, id: string, change: Change): Promise<Alert> {
  const now = sc.deps.now();
  await sc.deps.db.transaction(async (tx) => {
    await checkChange(tx, sc, change, now);
    await applyChange(tx, sc, await lockedAlert(tx, sc.space.id, id), change, now);
  });
  const [alert] = await answered(sc.deps.db, [id]);
  if (!alert) throw notFound('alert');
  return alert;
}

/** The same change to many alerts of the space at once (ids of other spaces are not found and skipped). */
export async function bulkUpdateAlerts(
  sc: SpaceCaller,
  body: z.infer<typeof BulkAlertBody>,
): Promise<{ updated: number; items: Alert[] }> {
  const now = sc.deps.now();
  const { ids, ...change } = body;
  const touched = await sc.deps.db.transaction(async (tx) => {
    await checkChange(tx, sc, change, now);
    const rows = await tx
      .select()
      .from(alerts)
      .where(and(eq(alerts.spaceId, sc.space.id), inArray(alerts.id, [...new Set(ids)])))
      .orderBy(alerts.id)
      .for('update');
    const changed: string[] = [];
    for (const row of rows) {
      const after = await applyChange(tx, sc, row, change, now);
      if (after !== row) changed.push(row.id);
    }
    return { changed, all: rows.map((r) => r.id) };
  });
  return { updated: touched.changed.length, items: await answered(sc.deps.db, touched.all) };
}

/** Adds a Markdown note to an alert's timeline. */
export async function addNote(sc: SpaceCaller, id: string, body: z.infer<typeof NoteBody>): Promise<TriageEntry> {
  const now = sc.deps.now();
  return sc.deps.db.transaction(async (tx) => {
    const alert = await lockedAlert(tx, sc.space.id, id);
    const row = await recordDecision(tx, {
      spaceId: sc.space.id,
      subject: { type: 'alert', id: alert.id },
      decision: 'noted',
      actor: sc.actor,
      note: body.body,
      at: now,
    });
    await tx.update(alerts).set({ updatedAt: now }).where(eq(alerts.id, alert.id));
    await recordActivity(tx, sc.actor, {
      spaceId: sc.space.id,
      action: 'alert.note',
      objectType: 'alert',
      objectId: alert.id,
      change: { length: body.body.length },
    });
    return triageView(row);
  });
}

/**
 * "Do not alert on this group for N days": a decision on the alert's rule scoped to the alert's group, in force
 * until it expires or is removed; the alert's timeline shows it.
 */
export async function suppressGroup(
  sc: SpaceCaller,
  id: string,
  body: z.infer<typeof SuppressBody>,
): Promise<TriageEntry> {
  const now = sc.deps.now();
  return sc.deps.db.transaction(async (tx) => {
    const alert = await lockedAlert(tx, sc.space.id, id);
    if (!alert.ruleId)
      throw new ApiError(409, 'rule_deleted', 'The rule of this alert was deleted: nothing to suppress.');
    const until = new Date(now.getTime() + body.days * 86_400_000);
    const row = await recordDecision(tx, {
      spaceId: sc.space.id,
      subject: { type: 'alert_rule', id: alert.ruleId },
      decision: SUPPRESSED,
      actor: sc.actor,
      reason: body.reason,
      until,
      scope: { groupKey: alert.groupKey, alertId: alert.id, ...alert.groupValues },
      at: now,
    });
    await recordActivity(tx, sc.actor, {
      spaceId: sc.space.id,
      action: 'alert_rule.suppress',
      objectType: 'alert_rule',
      objectId: alert.ruleId,
      change: { groupKey: alert.groupKey, until: until.toISOString(), reason: body.reason, alertId: alert.id },
    });
    return triageView(row);
  });
}
