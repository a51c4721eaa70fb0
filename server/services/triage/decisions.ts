/** Reading the triage record: a subject's timeline, and the decisions in force (a suppression, an accepted risk). */
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { type TriageRow, triageRecords } from '../../db/schema/triage.ts';
import { notFound } from '../../errors.ts';
import type { TriageSubject } from './record.ts';

/** Every decision about a subject, oldest first. */
export async function decisionsOf(db: Executor, subject: TriageSubject, limit = 500): Promise<TriageRow[]> {
  return db
    .select()
    .from(triageRecords)
    .where(and(eq(triageRecords.subjectType, subject.type), eq(triageRecords.subjectId, subject.id)))
    .orderBy(asc(triageRecords.at), asc(triageRecords.seq))
    .limit(limit);
}

/**
 * A subject's decisions of one kind that are in force at `now`: not revoked and not expired, with their scope
 * (a rule's suppressions, say), newest first.
 */
export async function decisionsInForce(
  db: Executor,
  spaceId: string,
  subject: TriageSubject,
  decision: string,
  now: Date,
): Promise<TriageRow[]> {
  return db
    .select()
    .from(triageRecords)
    .where(
      and(
        eq(triageRecords.spaceId, spaceId),
        eq(triageRecords.subjectType, subject.type),
        eq(triageRecords.subjectId, subject.id),
        eq(triageRecords.decision, decision),
        isNull(triageRecords.revokedAt),
        gt(triageRecords.until, now),
      ),
    )
    .orderBy(sql`${triageRecords.at} desc`);
}

/** Ends a decision in force early (removing a suppression); 404 when the space has no such decision. */
export async function revokeDecision(
  tx: Executor,
  input: { spaceId: string; subject: TriageSubject; id: string; by: string | null; now: Date },
): Promise<TriageRow> {
  const [row] = await tx
    .update(triageRecords)
    .set({ revokedAt: input.now, revokedById: input.by })
    .where(
      and(
        eq(triageRecords.id, input.id),
        eq(triageRecords.spaceId, input.spaceId),
        eq(triageRecords.subjectType, input.subject.type),
        eq(triageRecords.subjectId, input.subject.id),
        isNull(triageRecords.revokedAt),
      ),
    )
    .returning();
  if (!row) throw notFound('suppression');
  return row;
}
