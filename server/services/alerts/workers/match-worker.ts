/**
 * `alerts.match`: the firings a batch's match rules found on ingest (detection/ingest-match.ts), written after the batch's
 * commit: each group adds to its alert or opens one, unless it is suppressed. The job completes in the transaction
 * that writes the alerts, so a retry never counts the same events twice.
 */
import { eq, inArray } from 'drizzle-orm';
import { type AlertRuleRow, alertRules } from '../../../db/schema/alerts.ts';
import { completeWithin } from '../../jobs/complete.ts';
import { defineWorker } from '../../jobs/worker.ts';
import { markRuleFired, recordFiring } from '../detection/fire.ts';
import { newsOfFiring, notifyNews } from '../detection/notify-firing.ts';
import { suppressedGroups } from '../detection/suppressions.ts';

/** One group a match rule found in a batch: its exact count, time span, firewalls and newest events. */
export type MatchedGroup = {
  key: string;
  values: Record<string, string>;
  count: number;
  firstSeen: string;
  lastSeen: string;
  firewalls: (string | null)[];
  /** `[time, id]` of the newest events, to keep as links. */
  events: [string, string][];
};

/** The arguments of an `alerts.match` job. */
export type MatchArgs = { rules: { ruleId: string; groups: MatchedGroup[] }[] };

export const matchWorker = defineWorker<MatchArgs>({
  kind: 'alerts.match',
  queue: 'alerts',
  maxAttempts: 10,
  async perform(args, ctx) {
    const ids = args.rules.map((r) => r.ruleId);
    const rules = new Map<string, AlertRuleRow>(
      (await ctx.db.select().from(alertRules).where(inArray(alertRules.id, ids))).map((r) => [r.id, r]),
    );
    const now = ctx.now();
    // Rules in one order, each locked before its alerts (as its first firing's `last_fired_at` would lock it): jobs
    // running side by side then wait on each other per rule instead of deadlocking on its alerts and its row, as
    // a quarter of the attempts of 5 jobs at once did.
    const ordered = [...args.rules].sort((a, b) => (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
    await ctx.db.transaction(async (tx) => {
      for (const { ruleId, groups } of ordered) {
        const rule = rules.get(ruleId);
        // A rule deleted or switched off since the batch arrived fires no more.
        if (!rule?.enabled) continue;
        await tx.select({ id: alertRules.id }).from(alertRules).where(eq(alertRules.id, rule.id)).for('no key update');
        const suppressed = await suppressedGroups(tx, rule.spaceId, rule.id, now);
        let fires = 0;
        for (const group of groups) {
          if (suppressed.has(group.key)) continue;
          fires++;
          const fired = await recordFiring(tx, {
            rule,
            group: { key: group.key, values: group.values },
            count: group.count,
            firstSeen: new Date(group.firstSeen),
            lastSeen: new Date(group.lastSeen),
            events: group.events.map(([time, id]) => ({ time: new Date(time), id })),
            firewalls: group.firewalls,
            now,
          });
          const news = newsOfFiring(fired.alert, rule, fired.opened, now);
          if (news) await notifyNews(tx, ctx.deps, { alert: fired.alert, rule, news, now });
        }
        if (fires > 0) await markRuleFired(tx, rule.id, now);
      }
      await completeWithin(tx, ctx.job, now);
    });
  },
});
