/**
 * Triage of findings (analysts and up) in VEX terms: open, not affected (with a CycloneDX justification), risk
 * accepted (with why and until when; it opens again then). `mitigated` comes from a virtual patch and `fixed` from an
 * assessment, never from a person. Each decision goes to the shared triage record, each change to the audit log.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { BulkFindingBody, Finding, UpdateFindingBody } from '../../../../contract/findings.ts';
import type { SpaceCaller } from '../../../caller.ts';
import type { Executor } from '../../../db/database.ts';
import { type FindingRow, findings } from '../../../db/schema/vulns.ts';
import { ApiError, fieldError, notFound } from '../../../errors.ts';
import { recordActivity } from '../../activity/record.ts';
import { recordDecision } from '../../triage/record.ts';
import { answeredFindings } from './view.ts';

type Change = z.infer<typeof UpdateFindingBody>;

/** How far ahead a risk acceptance may end. */
const maxAcceptDays = 730;

function checkChange(change: Change, now: Date): void {
  if (change.until) {
    const until = Date.parse(change.until);
    if (until <= now.getTime()) throw fieldError('until', 'Choose an end in the future.');
    if (until > now.getTime() + maxAcceptDays * 86_400_000)
      throw fieldError('until', `Accept a risk for at most ${maxAcceptDays} days; review it again then.`);
  }
}

/** The decision's name in the triage record. */
const decisionOf = (status: Change['status']) => (status === 'open' ? 'reopened' : status);

/** Applies one change to one locked finding; a fixed finding cannot be triaged (there is nothing left to decide). */
async function applyChange(
  tx: Executor,
  sc: SpaceCaller,
  before: FindingRow,
  change: Change,
  now: Date,
  bulk: boolean,
) {
  if (before.status === 'fixed') {
    if (bulk) return before;
    throw new ApiError(409, 'finding_fixed', 'This finding is fixed: the component no longer has the vulnerability.');
  }
  if (before.status === 'mitigated' && change.status === 'open') {
    if (bulk) return before;
    throw new ApiError(
      409,
      'finding_mitigated',
      'This finding is mitigated by a virtual patch: remove the patch to open it again.',
    );
  }
  const set = {
    status: change.status,
    justification: change.status === 'not_affected' ? (change.justification ?? null) : null,
    reason: change.reason || null,
    until: change.status === 'accepted' && change.until ? new Date(change.until) : null,
  };
  const same =
    set.status === before.status &&
    set.justification === before.justification &&
    set.reason === before.reason &&
    (set.until?.getTime() ?? null) === (before.until?.getTime() ?? null);
  if (same) return before;
  const [after] = await tx
    .update(findings)
    .set({ ...set, updatedAt: now })
    .where(eq(findings.id, before.id))
    .returning();
  if (!after) throw notFound('finding');
  await recordDecision(tx, {
    spaceId: sc.space.id,
    subject: { type: 'finding', id: before.id },
    decision: decisionOf(change.status),
    actor: sc.actor,
    reason: set.reason,
    until: set.until,
    scope: set.justification ? { justification: set.justification } : null,
    change: { status: { from: before.status, to: set.status } },
    at: now,
  });
  await recordActivity(tx, sc.actor, {
    spaceId: sc.space.id,
    action: 'finding.update',
    objectType: 'finding',
    objectId: before.id,
    change: {
      vulnId: before.vulnId,
      status: { from: before.status, to: set.status },
      ...(set.justification ? { justification: set.justification } : {}),
      ...(set.reason ? { reason: set.reason } : {}),
      ...(set.until ? { until: set.until.toISOString() } : {}),
    },
  });
  return after;
}

/** Triages one finding. */
export async function updateFinding(sc: SpaceCaller, id: string, change: Change): Promise<Finding> {
  const now = sc.deps.now();
  checkChange(change, now);
  await sc.deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(findings)
      .where(and(eq(findings.id, id), eq(findings.spaceId, sc.space.id)))
      .for('update');
    if (!row) throw notFound('finding');
    await applyChange(tx, sc, row, change, now, false);
  });
  const [finding] = await answeredFindings(sc.deps.db, sc.space.id, [id]);
  if (!finding) throw notFound('finding');
  return finding;
}

/** The same decision for many findings (fixed and mitigated ones a reopen cannot touch are passed over). */
export async function bulkUpdateFindings(
  sc: SpaceCaller,
  body: z.infer<typeof BulkFindingBody>,
): Promise<{ updated: number; items: Finding[] }> {
  const now = sc.deps.now();
  const { ids, ...change } = body;
  checkChange(change, now);
  const touched = await sc.deps.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(findings)
      .where(and(eq(findings.spaceId, sc.space.id), inArray(findings.id, [...new Set(ids)])))
      .orderBy(findings.id)
      .for('update');
    let changed = 0;
    for (const row of rows) if ((await applyChange(tx, sc, row, change, now, true)) !== row) changed++;
    return { changed, all: rows.map((r) => r.id) };
  });
  return { updated: touched.changed, items: await answeredFindings(sc.deps.db, sc.space.id, touched.all) };
}
