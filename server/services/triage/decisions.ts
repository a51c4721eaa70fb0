/** Reading the triage record: a subject's timeline, and the decisions in force (a suppression, an accepted risk). */
import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { type TriageRow, triageRecords } from '../../db/schema/triage.ts';
import { notFound } from '../../errors.ts';
import type { TriageSubject } from './record.ts';

/**
 * A subject's timeline in the space, oldest first: every decision about it and, with `rule`, the decisions about that
 * alert rule made from this alert (its suppressions whose scope names the alert); at most `limit`.
 */
export async function timelineOf(
  db: Executor,
  spaceId: string,
  subject: TriageSubject,
  options: { rule?: string | null; limit?: number } = {},
): Promise<TriageRow[]> {
  const own = and(eq(triageRecords.subjectType, subject.type), eq(triageRecords.subjectId, subject.id));
  const fromRule = options.rule
    ? and(
        eq(triageRecords.subjectType, 'alert_rule'),
        eq(triageRecords.subjectId, options.rule),
        sql`${triageRecords.scope}->>'alertId' = ${subject.id}`,
      )
    : undefined;
  const query = db
    .select()
    .from(triageRecords)
    .where(and(eq(triageRecords.spaceId, spaceId), fromRule ? or(own, fromRule) : own))
    .orderBy(asc(triageRecords.at), asc(triageRecords.seq));
  return options.limit === undefined ? query : query.limit(options.limit);
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
