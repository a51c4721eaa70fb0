/**
 * The one triage record (docs/style.md): every decision about an alert, an alert rule's group or a vulnerability finding
 * is written here, with who made it, when, why, until when and on what scope, in the transaction of the change.
 */
import type { TriageEntry } from '../../../contract/triage.ts';
import type { Executor } from '../../db/database.ts';
import { type TriageRow, triageRecords } from '../../db/schema/triage.ts';
import type { Actor } from '../activity/record.ts';

/** What a decision is about: an alert, a rule (its suppressions), a vulnerability finding. */
export type TriageSubject = { type: 'alert' | 'alert_rule' | 'finding'; id: string };

/** One decision to record. */
export type DecisionInput = {
  spaceId: string;
  subject: TriageSubject;
  decision: string;
  actor: Pick<Actor, 'id' | 'name'>;
  reason?: string | null | undefined;
  until?: Date | null | undefined;
  scope?: Record<string, string> | null | undefined;
  change?: Record<string, unknown> | null | undefined;
  note?: string | null | undefined;
  at: Date;
};

/** Who the system's own decisions (auto-resolve, snooze expiry, a silence ending) are recorded as. */
export const systemActor: Pick<Actor, 'id' | 'name'> = { id: null, name: 'Spaceguard' };

/** Writes one decision; call it with the transaction that makes the change. */
export async function recordDecision(tx: Executor, input: DecisionInput): Promise<TriageRow> {
  const [row] = await tx
    .insert(triageRecords)
    .values({
      spaceId: input.spaceId,
      subjectType: input.subject.type,
      subjectId: input.subject.id,
      decision: input.decision,
      actorId: input.actor.id,
      actorName: input.actor.name,
      reason: input.reason || null,
      until: input.until ?? null,
      scope: input.scope ?? null,
      change: input.change ?? null,
      note: input.note ?? null,
      at: input.at,
    })
    .returning();
  if (!row) throw new Error('insert returned nothing');
  return row;
}

/** A decision as the API answers it. */
export function triageView(row: TriageRow): TriageEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { id: row.actorId, name: row.actorName },
    decision: row.decision,
    reason: row.reason,
    until: row.until?.toISOString() ?? null,
    scope: row.scope,
    change: row.change,
    note: row.note,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
