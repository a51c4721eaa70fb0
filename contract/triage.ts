/**
 * The shared triage record of alerts and vulnerability findings: every decision (a status, an assignee, a snooze, a
 * suppression, a note) with who made it, when, why, until when and on what scope.
 */
import { z } from 'zod';
import { Id, Timestamp } from './common.ts';
import { Person } from './members.ts';

/** One decision of the triage record: who, when, what, why, until, scope. */
export const TriageEntry = z
  .object({
    id: Id,
    at: Timestamp,
    actor: Person,
    decision: z.string(),
    reason: z.string().nullable(),
    until: Timestamp.nullable(),
    scope: z.record(z.string(), z.string()).nullable(),
    change: z.record(z.string(), z.unknown()).nullable(),
    /** A note's Markdown. */
    note: z.string().nullable(),
    revokedAt: Timestamp.nullable(),
  })
  .meta({ id: 'TriageEntry' });
export type TriageEntry = z.infer<typeof TriageEntry>;
