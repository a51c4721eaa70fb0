import { and, eq, sql } from 'drizzle-orm';
import { planTerms } from '../../../contract/constants/plans.ts';
import type { IngestAnswer, IngestRefusal, LineError, NormalisedEvent } from '../../../contract/events.ts';
import type { Db, Executor } from '../../db/database.ts';
import { events } from '../../db/schema/events.ts';
import { ingestBatches, ingestErrors } from '../../db/schema/ingest-batches.ts';
import type { SourceRow } from '../../db/schema/sources.ts';
import type { SpaceRow } from '../../db/schema/spaces.ts';
import { eventUsage } from '../../db/schema/usage.ts';

/** Refused lines kept per batch for the source page. */
const keptErrors = 100;

/** 'YYYY-MM' of a date in UTC: the usage counter's key. */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** Seconds from `now` to the first second of the next UTC month, for Retry-After. */
export function secondsToNextMonth(now: Date): number {
  return Math.max(1, Math.ceil((startOfNextMonth(now).getTime() - now.getTime()) / 1000));
}

/** The first moment of the next UTC month, when the monthly quota starts again. */
export function startOfNextMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** The outcome of a stored batch: the answer, its HTTP status, and Retry-After when the quota refused events. */
export type StoredBatch =
  | { status: 200; answer: IngestAnswer }
  | { status: 429; answer: IngestRefusal; retryAfter: number };

/**
 * Inserts a batch as one statement whatever its size: the rows travel as a single JSON parameter that
 * PostgreSQL unpacks with jsonb_to_recordset, so no SQL is built per row (building a 1000-row VALUES list
 * cost more than the database did). A repeated dedup key of the same source is skipped. Answers rows inserted.
 */
async function insertEvents(
  tx: Executor,
  spaceId: string,
  sourceId: string,
  receivedAt: Date,
  rows: NormalisedEvent[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const payload = JSON.stringify(
    rows.map((e) => ({
      time: e.time,
      dedup_key: e.dedupKey,
      ip: e.ip,
      country: e.country,
      method: e.method,
      host: e.host,
      path: e.path,
      status: e.status,
      action: e.action,
      severity: e.severity,
      rule_ids: e.ruleIds,
      tags: e.tags,
      message: e.message,
      user_agent: e.userAgent,
      firewall_id: e.firewallId,
      raw: e.raw,
    })),
  );
  const result = await tx.execute(sql`
    with added as (
      insert into ${events} (space_id, source_id, received_at, time, dedup_key, ip, country, method, host, path,
        status, action, severity, rule_ids, tags, message, user_agent, firewall_id, raw)
      select ${spaceId}::uuid, ${sourceId}::uuid, ${receivedAt.toISOString()}::timestamptz, r.time, r.dedup_key,
        r.ip, r.country, r.method, r.host, r.path, r.status, r.action, r.severity, r.rule_ids, r.tags, r.message,
        r.user_agent, r.firewall_id, r.raw
      from jsonb_to_recordset(${payload}::jsonb) as r(time timestamptz, dedup_key text, ip text, country text,
        method text, host text, path text, status integer, action text, severity text, rule_ids integer[],
        tags text[], message text, user_agent text, firewall_id uuid, raw jsonb)
      on conflict (source_id, dedup_key) where dedup_key is not null do nothing
      returning 1
    )
    select count(*)::int as n from added`);
  // Both drivers (node-postgres, PGlite) answer `{ rows }`.
  const { rows: counted } = result as unknown as { rows: { n: number | string }[] };
  return Number(counted[0]?.n ?? 0);
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
    const quota = planTerms[space.plan].eventsPerMonth;
    const room = Math.max(0, quota - (usage?.accepted ?? 0));
    const taken = valid.slice(0, room);
    const refused = valid.length - taken.length;

    const inserted = await insertEvents(tx, space.id, source.id, now, taken);
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
