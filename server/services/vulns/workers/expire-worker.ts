/**
 * `vulns.expire`, every minute: risk acceptances whose end has passed open their findings again, recorded in the
 * triage record as the system's decision.
 */
import { and, eq, lte } from 'drizzle-orm';
import { findings } from '../../../db/schema/vulns.ts';
import type { WindowArgs } from '../../jobs/periodic.ts';
import { defineWorker } from '../../jobs/worker.ts';
import { recordDecision, systemActor } from '../../triage/record.ts';

export const expireWorker = defineWorker<WindowArgs>({
  kind: 'vulns.expire',
  queue: 'vulns',
  every: '1m',
  async perform(_args, ctx) {
    const now = ctx.now();
    await ctx.db.transaction(async (tx) => {
      const ended = await tx
        .update(findings)
        .set({ status: 'open', until: null, updatedAt: now })
        .where(and(eq(findings.status, 'accepted'), lte(findings.until, now)))
        .returning({ id: findings.id, spaceId: findings.spaceId, reason: findings.reason });
      for (const f of ended)
        await recordDecision(tx, {
          spaceId: f.spaceId,
          subject: { type: 'finding', id: f.id },
          decision: 'reopened',
          actor: systemActor,
          reason: 'The risk acceptance ended.',
          change: { status: { from: 'accepted', to: 'open' } },
          at: now,
        });
    });
  },
});
