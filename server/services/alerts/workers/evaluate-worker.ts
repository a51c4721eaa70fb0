/**
 * `alerts.evaluate`: one evaluation of a threshold or silence rule up to `at` (a scheduler window, or, when ingest
 * touched a threshold rule, the moment the job runs). The rule's row is locked for the evaluation and its
 * `evaluated_until` moves to `at` in the same transaction as the alerts and the job's completion, so several
 * processes never evaluate one window twice and a missed window is caught up by the next evaluation.
 */
import { and, eq, ne } from 'drizzle-orm';
import type { Executor } from '../../../db/database.ts';
import { type AlertRuleRow, alertRules, alerts } from '../../../db/schema/alerts.ts';
import type { AppDeps } from '../../../deps.ts';
import { completeWithin } from '../../jobs/complete.ts';
import { defineWorker } from '../../jobs/worker.ts';
import { markRuleFired, recordFiring } from '../detection/fire.ts';
import { newsOfFiring, notifyNews } from '../detection/notify-firing.ts';
import { resolveBySystem } from '../detection/resolve.ts';
import { activeAlertOf, silenceState } from '../detection/silence.ts';
import { suppressedGroups } from '../detection/suppressions.ts';
import { evaluationStart, groupEvents, thresholdHits } from '../detection/threshold.ts';

/** The arguments of an `alerts.evaluate` job: `at` null means "when the job runs". */
export type EvaluateArgs = { ruleId: string; at: string | null };

/** Evaluates a locked threshold rule from `from` to `at` and writes its firings. */
async function evaluateThreshold(
  tx: Executor,
  deps: Pick<AppDeps, 'config'>,
  rule: AlertRuleRow,
  from: Date,
  at: Date,
  now: Date,
): Promise<void> {
  const suppressed = await suppressedGroups(tx, rule.spaceId, rule.id, now);
  const windowMs = (rule.windowMinutes ?? 1) * 60_000;
  let fires = 0;
  for (const hit of await thresholdHits(tx, rule, from, at)) {
    if (suppressed.has(hit.group.key)) continue;
    // New events: those of the evaluated windows that arrived since the open alert last counted, or, for a new
    // alert, the whole first window over the threshold and what followed it.
    const active = await activeAlertFor(tx, rule, hit.group.key);
    const found = await groupEvents(
      tx,
      rule,
      hit.group.values,
      active
        ? { from: new Date(from.getTime() - windowMs), receivedAfter: active.coveredUntil }
        : { from: new Date(hit.firstEnd.getTime() - windowMs), receivedAfter: null },
    );
    if (found.count === 0 || !found.first || !found.last) continue;
    const fired = await recordFiring(tx, {
      rule,
      group: hit.group,
      count: found.count,
      firstSeen: found.first,
      lastSeen: found.last,
      events: found.refs,
      firewalls: found.firewalls,
      ...(found.receivedUntil ? { coveredUntil: found.receivedUntil } : {}),
      now,
    });
    fires++;
    const news = newsOfFiring(fired.alert, rule, fired.opened, now);
    if (news) await notifyNews(tx, deps, { alert: fired.alert, rule, news, now });
  }
  if (fires > 0) await markRuleFired(tx, rule.id, now);
}

/** The group's open or acknowledged alert of a rule, if any. */
async function activeAlertFor(tx: Executor, rule: AlertRuleRow, groupKey: string) {
  const [row] = await tx
    .select()
    .from(alerts)
    .where(and(eq(alerts.ruleId, rule.id), eq(alerts.groupKey, groupKey), ne(alerts.status, 'resolved')));
  return row ?? null;
}

/** Evaluates a locked silence rule at `at`: fires while silent, resolves its alert once events are back. */
async function evaluateSilence(
  tx: Executor,
  deps: Pick<AppDeps, 'config'>,
  rule: AlertRuleRow,
  at: Date,
  now: Date,
): Promise<void> {
  const state = await silenceState(tx, rule, at);
  if (!state) return;
  const active = await activeAlertOf(tx, rule);
  if (!state.silent) {
    if (active && state.lastEventAt && state.lastEventAt > active.firstSeen)
      await resolveBySystem(tx, deps, {
        alert: active,
        rule,
        reason: `Events arrived again at ${state.lastEventAt.toISOString()}`,
        now,
      });
    return;
  }
  const suppressed = await suppressedGroups(tx, rule.spaceId, rule.id, now);
  if (suppressed.has(state.group.key)) return;
  const titled = {
    ...rule,
    titleTemplate:
      rule.titleTemplate ??
      `No events from ${state.name} for ${rule.windowMinutes} minute${rule.windowMinutes === 1 ? '' : 's'}`,
  };
  const fired = await recordFiring(tx, {
    rule: titled,
    group: state.group,
    count: 0,
    firstSeen: at,
    lastSeen: at,
    events: [],
    firewalls: rule.firewallId ? [rule.firewallId] : [null],
    now,
  });
  await markRuleFired(tx, rule.id, now);
  const news = newsOfFiring(fired.alert, rule, fired.opened, now);
  if (news) await notifyNews(tx, deps, { alert: fired.alert, rule, news, now });
}

export const evaluateWorker = defineWorker<EvaluateArgs>({
  kind: 'alerts.evaluate',
  queue: 'alerts',
  maxAttempts: 10,
  timeoutMs: 120_000,
  async perform(args, ctx) {
    const now = ctx.now();
    const at = args.at ? new Date(args.at) : now;
    await ctx.db.transaction(async (tx) => {
      // The lock orders evaluations of one rule across processes; the second finds the window done.
      const [rule] = await tx.select().from(alertRules).where(eq(alertRules.id, args.ruleId)).for('update');
      if (rule?.enabled && (rule.evaluatedUntil === null || rule.evaluatedUntil < at)) {
        if (rule.kind === 'threshold') await evaluateThreshold(tx, ctx.deps, rule, evaluationStart(rule, at), at, now);
        if (rule.kind === 'silence') await evaluateSilence(tx, ctx.deps, rule, at, now);
        await tx.update(alertRules).set({ evaluatedUntil: at }).where(eq(alertRules.id, rule.id));
      }
      await completeWithin(tx, ctx.job, now);
    });
  },
});
