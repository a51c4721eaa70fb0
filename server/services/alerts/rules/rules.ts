/**
 * Alert rules of a space: list, read, create within the plan's limit, change, delete. Every change is
 * checked whole (the query parses, the kind has what it needs, a watched source or firewall is the space's, a webhook
 * has a secret and may be reached) and audited.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type AlertRule,
  type CreateAlertRuleBody,
  ruleKindIssues,
  type UpdateAlertRuleBody,
} from '../../../../contract/alert-rules.ts';
import type { ChannelInput } from '../../../../contract/notifications.ts';
import type { SpaceCaller } from '../../../caller.ts';
import type { Executor } from '../../../db/database.ts';
import { type AlertRuleRow, alertRules, type StoredChannel } from '../../../db/schema/alerts.ts';
import { firewalls } from '../../../db/schema/firewalls.ts';
import { sources } from '../../../db/schema/sources.ts';
import { ApiError, fieldError } from '../../../errors.ts';
import { recordActivity } from '../../activity/record.ts';
import { parsedQuery } from '../../events/filters.ts';
import { checkLimit, checkWritable } from '../../limits/limits.ts';
import { isUniqueViolation } from '../../shared/db-errors.ts';
import { lockSpace } from '../../spaces/lock-space.ts';
import { activeAlertCounts, ruleRowOf, ruleView } from './rule-view.ts';

type RuleFields = Omit<
  AlertRuleRow,
  'id' | 'spaceId' | 'evaluatedUntil' | 'lastFiredAt' | 'createdById' | 'createdByName' | 'createdAt' | 'updatedAt'
>;

/** 409 for a second rule of the same name in a space. */
function duplicateName(name: string): ApiError {
  return new ApiError(409, 'duplicate_name', `A rule named "${name}" exists already; choose another name.`, {
    fields: { name: 'Another rule has this name.' },
  });
}

/**
 * Channels as stored: a webhook given without a secret keeps the secret its URL had (an edit that leaves the
 * secret alone); a new URL without one is a 400 on that channel.
 */
function storedChannels(given: ChannelInput[], before: StoredChannel[]): StoredChannel[] {
  return given.map((channel, index) => {
    if (channel.kind === 'email') return { kind: 'email', to: [...new Set(channel.to)] };
    if (channel.secret) return { kind: 'webhook', url: channel.url, secret: channel.secret };
    const kept = before.find((c) => c.kind === 'webhook' && c.url === channel.url);
    if (kept?.kind === 'webhook') return { kind: 'webhook', url: channel.url, secret: kept.secret };
    throw fieldError(`channels.${index}.secret`, 'Give the webhook a secret of at least 16 characters to sign with.');
  });
}

/** Checks what a whole rule refers to and what its kind needs; 400 naming the field. */
async function checkRule(tx: Executor, spaceId: string, rule: RuleFields): Promise<void> {
  const [first] = ruleKindIssues(rule);
  if (first) throw fieldError(first.path, first.message);
  if (rule.kind !== 'silence') parsedQuery(rule.query, 'query');
  if (rule.kind === 'silence' && rule.groupBy.length > 0)
    throw fieldError('groupBy', 'A silence rule watches one source or firewall and has no groups.');
  if (rule.sourceId) {
    const [found] = await tx
      .select({ id: sources.id })
      .from(sources)
      .where(and(eq(sources.id, rule.sourceId), eq(sources.spaceId, spaceId)));
    if (!found) throw fieldError('sourceId', 'This space has no such log source.');
  }
  if (rule.firewallId) {
    const [found] = await tx
      .select({ id: firewalls.id })
      .from(firewalls)
      .where(and(eq(firewalls.id, rule.firewallId), eq(firewalls.spaceId, spaceId)));
    if (!found) throw fieldError('firewallId', 'This space has no such firewall.');
  }
}

/** The space's rules by name, each with its open and acknowledged alerts. */
export async function listAlertRules(sc: SpaceCaller): Promise<{ items: AlertRule[] }> {
  const rows = await sc.deps.db
    .select()
    .from(alertRules)
    .where(eq(alertRules.spaceId, sc.space.id))
    .orderBy(asc(alertRules.name), asc(alertRules.id));
  const counts = await activeAlertCounts(
    sc.deps.db,
    rows.map((r) => r.id),
  );
  return { items: rows.map((row) => ruleView(row, counts.get(row.id) ?? 0)) };
}

/** One rule. */
export async function getAlertRule(sc: SpaceCaller, id: string): Promise<AlertRule> {
  const row = await ruleRowOf(sc.deps.db, sc.space.id, id);
  const counts = await activeAlertCounts(sc.deps.db, [row.id]);
  return ruleView(row, counts.get(row.id) ?? 0);
}

/** The stored fields of a rule from a create body. */
function fieldsOfCreate(input: z.infer<typeof CreateAlertRuleBody>): RuleFields {
  return {
    name: input.name,
    enabled: input.enabled,
    severity: input.severity,
    kind: input.kind,
    query: input.kind === 'silence' ? '' : input.query,
    threshold: input.kind === 'threshold' ? (input.threshold ?? null) : null,
    windowMinutes: input.kind === 'match' ? null : (input.windowMinutes ?? null),
    groupBy: input.groupBy,
    sourceId: input.kind === 'silence' ? (input.sourceId ?? null) : null,
    firewallId: input.kind === 'silence' ? (input.firewallId ?? null) : null,
    titleTemplate: input.titleTemplate || null,
    renotifyMinutes: input.renotifyMinutes ?? null,
    autoResolveMinutes: input.autoResolveMinutes ?? null,
    channels: storedChannels(input.channels, []),
  };
}

/** Creates a rule within the plan's limit. */
export async function createAlertRule(
  sc: SpaceCaller,
  input: z.infer<typeof CreateAlertRuleBody>,
  hooks: RuleHooks,
): Promise<AlertRule> {
  const fields = fieldsOfCreate(input);
  await hooks.checkChannels(fields.channels);
  const now = sc.deps.now();
  try {
    const row = await sc.deps.db.transaction(async (tx) => {
      await lockSpace(tx, sc.space.id);
      await checkLimit(tx, sc.space, 'alertRules', {}, sc.deps.now());
      await checkRule(tx, sc.space.id, fields);
      const [created] = await tx
        .insert(alertRules)
        .values({
          ...fields,
          spaceId: sc.space.id,
          // Threshold and silence rules start watching now: nothing before their creation is evaluated.
          evaluatedUntil: now,
          createdById: sc.user.id,
          createdByName: sc.user.name,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!created) throw new Error('insert returned nothing');
      await recordActivity(tx, sc.actor, {
        spaceId: sc.space.id,
        action: 'alert_rule.create',
        objectType: 'alert_rule',
        objectId: created.id,
        change: auditFields(created),
      });
      return created;
    });
    return ruleView(row, 0);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(input.name);
    throw error;
  }
}

/** What the audit keeps of a rule: everything but webhook secrets. */
function auditFields(row: RuleFields): Record<string, unknown> {
  const { channels, ...rest } = row;
  return {
    ...rest,
    channels: channels.map((c) => (c.kind === 'webhook' ? { kind: 'webhook', url: c.url } : c)),
  };
}

/** Checks the area outside the rule itself asks for: that webhook URLs may be reached (notifications' guard). */
export type RuleHooks = { checkChannels(channels: StoredChannel[]): Promise<void> };

/** Changes the given fields; the rule as it would be after is checked whole; the audit keeps what changed. */
export async function updateAlertRule(
  sc: SpaceCaller,
  id: string,
  input: z.infer<typeof UpdateAlertRuleBody>,
  hooks: RuleHooks,
): Promise<AlertRule> {
  const now = sc.deps.now();
  try {
    const row = await sc.deps.db.transaction(async (tx) => {
      const before = await ruleRowOf(tx, sc.space.id, id, true);
      await checkWritable(tx, sc.space, 'alertRules', id);
      const { channels, ...given } = input;
      const merged = { ...pick(before), ...definedOnly(given) } as RuleFields;
      if (channels) merged.channels = storedChannels(channels, before.channels);
      if (merged.kind === 'silence') merged.query = '';
      if (merged.kind !== 'threshold') merged.threshold = null;
      if (merged.kind === 'match') merged.windowMinutes = null;
      if (merged.kind !== 'silence') {
        merged.sourceId = null;
        merged.firewallId = null;
      }
      await checkRule(tx, sc.space.id, merged);
      if (channels) await hooks.checkChannels(merged.channels);
      const [updated] = await tx
        .update(alertRules)
        .set({
          ...merged,
          // A rule switched on again starts watching now, not from when it was switched off.
          ...(merged.enabled && !before.enabled ? { evaluatedUntil: now } : {}),
          updatedAt: now,
        })
        .where(eq(alertRules.id, before.id))
        .returning();
      if (!updated) throw new Error('update returned nothing');
      const was = auditFields(pick(before));
      const is = auditFields(pick(updated));
      const change: Record<string, unknown> = {};
      for (const key of Object.keys(is)) {
        if (JSON.stringify(was[key]) !== JSON.stringify(is[key])) change[key] = { from: was[key], to: is[key] };
      }
      await recordActivity(tx, sc.actor, {
        spaceId: sc.space.id,
        action: 'alert_rule.update',
        objectType: 'alert_rule',
        objectId: updated.id,
        change,
      });
      return updated;
    });
    const counts = await activeAlertCounts(sc.deps.db, [row.id]);
    return ruleView(row, counts.get(row.id) ?? 0);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(input.name ?? '');
    throw error;
  }
}

/** The fields of a row a change may touch. */
function pick(row: AlertRuleRow): RuleFields {
  const {
    id: _id,
    spaceId: _space,
    evaluatedUntil: _evaluated,
    lastFiredAt: _fired,
    createdById: _by,
    createdByName: _byName,
    createdAt: _created,
    updatedAt: _updated,
    ...fields
  } = row;
  return fields;
}

/** The keys of a partial body that were given (undefined means "leave it"). */
function definedOnly<T extends Record<string, unknown>>(given: T): Partial<T> {
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Deletes a rule; its alerts stay (with the rule's name) so their history is kept. */
export async function deleteAlertRule(sc: SpaceCaller, id: string): Promise<void> {
  await sc.deps.db.transaction(async (tx) => {
    const row = await ruleRowOf(tx, sc.space.id, id, true);
    await tx.delete(alertRules).where(eq(alertRules.id, row.id));
    await recordActivity(tx, sc.actor, {
      spaceId: sc.space.id,
      action: 'alert_rule.delete',
      objectType: 'alert_rule',
      objectId: row.id,
      change: { name: row.name, kind: row.kind },
    });
  });
}
