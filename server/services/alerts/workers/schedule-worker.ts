/**
 * `alerts.schedule`, every minute: enqueues one evaluation per enabled threshold and silence rule for the minute's
 * window (unique per rule and window, so each runs once across every process), and does the alerts' timed work:
 * snoozes that ran out return their alerts to open, and alerts quiet for their rule's auto-resolve delay resolve.
 */
import { and, eq, inArray, isNotNull, lte, ne, sql } from 'drizzle-orm';
import { alertRules, alerts } from '../../../db/schema/alerts.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import type { WindowArgs } from '../../jobs/periodic.ts';
import { defineWorker } from '../../jobs/worker.ts';
import { recordDecision, systemActor } from '../../triage/record.ts';
import { resolveBySystem } from '../detection/resolve.ts';
import { evaluateWorker } from './evaluate-worker.ts';

/** Alerts handled per run by each timed sweep; the rest wait for the next minute. */
const sweepBatch = 500;

export const scheduleWorker = defineWorker<WindowArgs>({
  kind: 'alerts.schedule',
  queue: 'alerts',
  every: '1m',
  maxAttempts: 3,
  async perform(args, ctx) {
    const now = ctx.now();
    const window = new Date(args.window);
    const rules = await ctx.db
      .select({ id: alertRules.id, spaceId: alertRules.spaceId })
      .from(alertRules)
      .where(and(eq(alertRules.enabled, true), inArray(alertRules.kind, ['threshold', 'silence'])));
    for (const rule of rules) {
      await enqueue(
        ctx.db,
        evaluateWorker,
        { ruleId: rule.id, at: window.toISOString() },
        {
          now,
          spaceId: rule.spaceId,
          scheduledAt: window,
          uniqueKey: `alerts.evaluate:${rule.id}:${window.toISOString()}`,
        },
      );
    }

    // Snoozes that ran out: the alert is open again, and the timeline says so.
    await ctx.db.transaction(async (tx) => {
      const woken = await tx
        .update(alerts)
        .set({
          status: sql`case when ${alerts.status} = 'acknowledged' then 'open' else ${alerts.status} end`,
          snoozedUntil: null,
          updatedAt: now,
        })
        .where(
          inArray(
            alerts.id,
            tx
              .select({ id: alerts.id })
              .from(alerts)
              .where(and(isNotNull(alerts.snoozedUntil), lte(alerts.snoozedUntil, now)))
              .limit(sweepBatch)
              .for('update', { skipLocked: true }),
          ),
        )
        .returning({ id: alerts.id, spaceId: alerts.spaceId, status: alerts.status });
      for (const alert of woken) {
        await recordDecision(tx, {
          spaceId: alert.spaceId,
          subject: { type: 'alert', id: alert.id },
          decision: 'snooze_ended',
          actor: systemActor,
          reason: 'The snooze ran out',
          change: { status: { to: alert.status } },
          at: now,
        });
      }
    });

    // Alerts whose rule resolves them after a quiet delay.
    await ctx.db.transaction(async (tx) => {
      const quiet = await tx
        .select({ alert: alerts, rule: alertRules })
        .from(alerts)
        .innerJoin(alertRules, eq(alertRules.id, alerts.ruleId))
        .where(
          and(
            ne(alerts.status, 'resolved'),
            isNotNull(alertRules.autoResolveMinutes),
            ne(alerts.kind, 'silence'),
            sql`${alerts.lastSeen} <= ${now.toISOString()}::timestamptz - ${alertRules.autoResolveMinutes} * interval '1 minute'`,
          ),
        )
        .limit(sweepBatch)
        .for('update', { of: alerts, skipLocked: true });
      for (const { alert, rule } of quiet) {
        await resolveBySystem(tx, ctx.deps, {
          alert,
          rule,
          reason: `No new events for ${rule.autoResolveMinutes} minutes`,
          now,
        });
      }
    });
  },
});
