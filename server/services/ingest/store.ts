import { and, eq, sql } from 'drizzle-orm';
import {
  eventsPerMonth,
  type IngestAnswer,
  type IngestRefusal,
  type LineError,
  type NormalisedEvent,
} from '../../../contract/events.ts';
import type { Db, Executor } from '../../db/database.ts';
import { events, type NewEventRow } from '../../db/schema/events.ts';
import { ingestBatches, ingestErrors } from '../../db/schema/ingest-batches.ts';
import type { SourceRow } from '../../db/schema/sources.ts';
import type { SpaceRow } from '../../db/schema/spaces.ts';
import { eventUsage } from '../../db/schema/usage.ts';

const chunkSize = 1000;
/** Refused lines kept per batch for the source page. */
const keptErrors = 100;

/** 'YYYY-MM' of a date in UTC: the usage counter's key. */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** Seconds from `now` to the first second of the next UTC month, for Retry-After. */
export function secondsToNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** The outcome of a stored batch: the answer, its HTTP status, and Retry-After when the quota refused events. */
export type StoredBatch =
  | { status: 200; answer: IngestAnswer }
  | { status: 429; answer: IngestRefusal; retryAfter: number };

/** Multi-row inserts of ~1000 events; a repeated dedup key of the same source is skipped. Answers rows inserted. */
async function insertEvents(tx: Executor, rows: NewEventRow[]): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < rows.length; i += chunkSize) {
    const done = await tx
      .insert(events)
      .values(rows.slice(i, i + chunkSize))
      .onConflictDoNothing({ target: [events.sourceId, events.dedupKey], where: sql`${events.dedupKey} is not null` })
      .returning({ id: events.id });
    inserted += done.length;
  }
  return inserted;
}

/**
 * Stores the valid events of a batch in one transaction with the usage counter, the line errors and the
 * idempotency record, so a 2xx means durable and a retry with the same key changes nothing.
 */
export async function storeBatch(
  db: Db,
  input: {
    space: SpaceRow;
    source: SourceRow;
    valid: NormalisedEvent[];
    errors: LineError[];
    now: Date;
    idempotencyKey: string | null;
  },
): Promise<StoredBatch> {
  const { space, source, valid, errors, now, idempotencyKey } = input;
  const month = monthOf(now);
  return db.transaction(async (tx) => {
    if (idempotencyKey !== null) {
      // Claim the key first: a concurrent retry waits here, then finds the stored answer.
      const claimed = await tx
        .insert(ingestBatches)
        .values({ sourceId: source.id, idempotencyKey, status: 0, response: {}, createdAt: now })
        .onConflictDoNothing()
        .returning({ key: ingestBatches.idempotencyKey });
      if (claimed.length === 0) {
        const [stored] = await tx
          .select()
          .from(ingestBatches)
          .where(and(eq(ingestBatches.sourceId, source.id), eq(ingestBatches.idempotencyKey, idempotencyKey)));
        return replay(stored?.status ?? 200, stored?.response, now);
      }
    }

    // The monthly counter, locked for the rest of the transaction so concurrent batches share the quota.
    await tx.insert(eventUsage).values({ spaceId: space.id, month }).onConflictDoNothing();
    const [usage] = await tx
      .select()
      .from(eventUsage)
      .where(and(eq(eventUsage.spaceId, space.id), eq(eventUsage.month, month)))
      .for('update');
    const quota = eventsPerMonth[space.plan];
    const room = Math.max(0, quota - (usage?.accepted ?? 0));
    const taken = valid.slice(0, room);
    const refused = valid.length - taken.length;

    const inserted = await insertEvents(
      tx,
      taken.map((e) => ({
        spaceId: space.id,
        sourceId: source.id,
        time: new Date(e.time),
        receivedAt: now,
        dedupKey: e.dedupKey,
        ip: e.ip,
        country: e.country,
        method: e.method,
        host: e.host,
        path: e.path,
        status: e.status,
        action: e.action,
        severity: e.severity,
        ruleIds: e.ruleIds,
        tags: e.tags,
        message: e.message,
        userAgent: e.userAgent,
        firewallId: e.firewallId,
        raw: e.raw,
      })),
    );
    await tx
      .update(eventUsage)
      .set({
        accepted: sql`${eventUsage.accepted} + ${inserted}`,
        refused: sql`${eventUsage.refused} + ${refused}`,
        updatedAt: now,
      })
      .where(and(eq(eventUsage.spaceId, space.id), eq(eventUsage.month, month)));
    if (errors.length > 0) {
      await tx
        .insert(ingestErrors)
        .values(
          errors
            .slice(0, keptErrors)
            .map((e) => ({ sourceId: source.id, line: e.line, message: e.message, createdAt: now })),
        );
    }

    const result: StoredBatch =
      refused > 0
        ? {
            status: 429,
            retryAfter: secondsToNextMonth(now),
            answer: {
              error: {
                code: 'quota_exceeded',
                message: `The monthly quota of ${quota.toLocaleString('en')} events of this plan is used up; ${refused} events were refused. A higher plan lifts it.`,
              },
              accepted: taken.length,
              errors,
              refused,
            },
          }
        : { status: 200, answer: { accepted: taken.length, errors } };
    if (idempotencyKey !== null) {
      await tx
        .update(ingestBatches)
        .set({ status: result.status, response: result.answer })
        .where(and(eq(ingestBatches.sourceId, source.id), eq(ingestBatches.idempotencyKey, idempotencyKey)));
    }
    return result;
  });
}

function replay(status: number, response: unknown, now: Date): StoredBatch {
  return status === 429
    ? { status: 429, answer: response as IngestRefusal, retryAfter: secondsToNextMonth(now) }
    : { status: 200, answer: response as IngestAnswer };
}
