import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { IngestAnswer, IngestRefusal, LineError, NormalisedEvent } from '../../../contract/events.ts';
import type { Db, Executor } from '../../db/database.ts';
import { eventRaw, events } from '../../db/schema/events.ts';
import { ingestBatches, ingestErrors } from '../../db/schema/ingest-batches.ts';
import type { SourceRow } from '../../db/schema/sources.ts';
import type { SpaceRow } from '../../db/schema/spaces.ts';
import { eventUsage } from '../../db/schema/usage.ts';
import { type BatchMatches, enqueueDetection, matchBatch, rulesForIngest } from '../alerts/detection/ingest-match.ts';
import { facetRowsSql, facetUpsertSql, minuteUpsertSql } from '../events/rollups.ts';
import { monthlyEventQuota, monthOf, startOfNextMonth } from '../limits/limits.ts';
import { rawJsonText } from './raw-text.ts';

/** Refused lines kept per batch for the source page. */
const keptErrors = 100;

/** Seconds from `now` to the first second of the next UTC month, for Retry-After. */
export function secondsToNextMonth(now: Date): number {
  return Math.max(1, Math.ceil((startOfNextMonth(now).getTime() - now.getTime()) / 1000));
}

/** The outcome of a stored batch: the answer, its HTTP status, and Retry-After when the quota refused events. */
export type StoredBatch =
  | { status: 200; answer: IngestAnswer }
  | { status: 429; answer: IngestRefusal; retryAfter: number };

/**
 * Inserts a batch as one statement whatever its size: the rows travel as a single JSON parameter that
 * PostgreSQL unpacks with jsonb_to_recordset, so no SQL is built per row (building a 1000-row VALUES list
 * cost more than the database did). A repeated record (same source, dedup key and time) is skipped. The same
 * statement writes the raw records of the inserted events to their side table and adds them to the rollups
 * (server/services/events/rollups.ts), one after the other in the order the final select asks for them.
 * Answers rows inserted.
 */
async function insertEvents(
  tx: Executor,
  spaceId: string,
  sourceId: string,
  receivedAt: Date,
  rows: NormalisedEvent[],
  ids: string[],
  wantIds: boolean,
): Promise<{ n: number; inserted: Set<string> | null }> {
  if (rows.length === 0) return { n: 0, inserted: wantIds ? new Set() : null };
  const result = await tx.execute(insertEventsStatement(spaceId, sourceId, receivedAt, rows, ids, wantIds));
  // Both drivers (node-postgres, PGlite) answer `{ rows }`.
  const { rows: counted } = result as unknown as { rows: { n: number | string; ids: string[] | null }[] };
  const first = counted[0];
  return { n: Number(first?.n ?? 0), inserted: wantIds ? new Set(first?.ids ?? []) : null };
}

/**
 * The statement of `insertEvents` (its plan is read by a benchmark). Event ids are made here (`ids`, one per row),
 * so detection knows them before the insert; with `wantIds` the statement also answers the ids it inserted (a
 * repeated record is not).
 */
export function insertEventsStatement(
  spaceId: string,
  sourceId: string,
  receivedAt: Date,
  rows: NormalisedEvent[],
  ids: string[] = rows.map(() => randomUUID()),
  wantIds = false,
) {
  // JSON text built per event: its columns encoded, then its raw record as the text it arrived as (`rawJsonText`).
  const payload = `[${rows
    .map((e, index) => {
      const columns = JSON.stringify({
        id: ids[index],
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
        // Each once: a rule or tag is on an event or not, and the rollups count an event once per element.
        rule_ids: [...new Set(e.ruleIds)],
        tags: [...new Set(e.tags)],
        message: e.message,
        user_agent: e.userAgent,
        firewall_id: e.firewallId,
      });
      return `${columns.slice(0, -1)},"raw":${rawJsonText(e.raw)}}`;
    })
    .join(',')}]`;
  return sql`
    with src as materialized (
      select r.*
      from jsonb_to_recordset(${payload}::jsonb) as r(id uuid, time timestamptz, dedup_key text, ip text, country text,
        method text, host text, path text, status integer, action text, severity text, rule_ids integer[],
        tags text[], message text, user_agent text, firewall_id uuid, raw jsonb)
    ),
    added as (
      insert into ${events} (space_id, time, id, source_id, received_at, dedup_key, ip, country, method, host, path,
        status, action, severity, rule_ids, tags, message, user_agent, firewall_id)
      select ${spaceId}::uuid, s.time, s.id, ${sourceId}::uuid, ${receivedAt.toISOString()}::timestamptz, s.dedup_key,
        s.ip, s.country, s.method, s.host, s.path, s.status, s.action, s.severity, s.rule_ids, s.tags, s.message,
        s.user_agent, s.firewall_id
      from src s
      on conflict (space_id, source_id, dedup_key, time) do nothing
      returning space_id, time, id, source_id, firewall_id, action, severity, country, host, ip, rule_ids, tags
    ),
    raw as (
      insert into ${eventRaw} (space_id, time, id, source_id, raw)
      select a.space_id, a.time, a.id, a.source_id, s.raw from added a join src s on s.id = a.id
      returning 1
    ),
    minute as (${sql.raw(minuteUpsertSql('added'))} returning 1),
    facet_rows as materialized (${sql.raw(facetRowsSql('added'))}),
    hour as (${sql.raw(facetUpsertSql('hour', 'facet_rows'))} returning 1),
    day as (${sql.raw(facetUpsertSql('day', 'facet_rows'))} returning 1)
    select (select count(*) from added)::int as n, (select count(*) from raw)::int as raw,
      (select count(*) from minute)::int as minute, (select count(*) from hour)::int as hour,
      (select count(*) from day)::int as day,
      ${wantIds ? sql`(select array_agg(id) from added)` : sql`null::uuid[]`} as ids`;
}

type BatchInput = {
  space: SpaceRow;
  source: SourceRow;
  valid: NormalisedEvent[];
  errors: LineError[];
  now: Date;
  idempotencyKey: string | null;
};

/** A batch stored without the usage lock would pass the quota: it is stored again, under the lock. */
class NearQuota extends Error {}

/**
 * Stores the valid events of a batch in one transaction with the usage counter, the line errors and the
 * idempotency record, so a 2xx means durable and a retry with the same key changes nothing.
 *
 * A space's batches store their events side by side: the monthly usage row is locked only by the update that
 * counts them, at the end. Where a batch would come near the quota (or a concurrent one took the room meanwhile),
 * the transaction is rolled back and run again holding the usage row from the start, which counts exactly.
 */
export async function storeBatch(db: Db, input: BatchInput): Promise<StoredBatch> {
  // The space's alert rules are tried on the batch in memory, before its transaction (server/services/alerts/).
  const rules = input.valid.length > 0 ? await rulesForIngest(db, input.space.id) : [];
  const detection = matchBatch(rules, input.valid, input.source.id);
  try {
    return await storeOnce(db, input, false, detection);
  } catch (error) {
    if (error instanceof NearQuota) return storeOnce(db, input, true, detection);
    throw error;
  }
}

async function storeOnce(db: Db, input: BatchInput, locked: boolean, detection: BatchMatches): Promise<StoredBatch> {
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

    // Batches of a space run side by side (a shared lock on the space), except one near the quota, which runs alone
    // (an exclusive one): it locks the usage row before its rows, the others lock their rows first and the usage
    // row last, and the two orders side by side deadlocked.
    const spaceLock = sql`hashtextextended(${`ingest:${space.id}`}, 0)`;
    await tx.execute(
      locked ? sql`select pg_advisory_xact_lock(${spaceLock})` : sql`select pg_advisory_xact_lock_shared(${spaceLock})`,
    );
    // The monthly counter: read as it is, or (near the quota) locked for the rest of the transaction so concurrent
    // batches share the quota exactly.
    await tx.insert(eventUsage).values({ spaceId: space.id, month, updatedAt: now }).onConflictDoNothing();
    const current = tx
      .select()
      .from(eventUsage)
      .where(and(eq(eventUsage.spaceId, space.id), eq(eventUsage.month, month)));
    const [usage] = locked ? await current.for('update') : await current;
    const quota = monthlyEventQuota(space.plan);
    const room = Math.max(0, quota - (usage?.accepted ?? 0));
    if (!locked && room < valid.length) throw new NearQuota();
    const taken = valid.slice(0, room);
    const refused = valid.length - taken.length;

    const ids = taken.map(() => randomUUID());
    const matched = detection.match.length > 0;
    const { n: inserted, inserted: insertedIds } = await insertEvents(
      tx,
      space.id,
      source.id,
      now,
      taken,
      ids,
      matched,
    );
    if (matched || detection.threshold.length > 0) {
      await enqueueDetection(tx, {
        spaceId: space.id,
        sourceId: source.id,
        events: taken,
        ids,
        // Past the quota, or a repeated record the insert skipped: not stored, so not an alert's event.
        stored: (index) => index < taken.length && (insertedIds?.has(ids[index] ?? '') ?? true),
        matches: detection,
        now,
      });
    }
    const [counted] = await tx
      .update(eventUsage)
      .set({
        accepted: sql`${eventUsage.accepted} + ${inserted}`,
        refused: sql`${eventUsage.refused} + ${refused}`,
        updatedAt: now,
      })
      .where(and(eq(eventUsage.spaceId, space.id), eq(eventUsage.month, month)))
      .returning({ accepted: eventUsage.accepted });
    // Concurrent batches took the room meanwhile: store this one again under the lock, which refuses the excess.
    if (!locked && (counted?.accepted ?? 0) > quota) throw new NearQuota();
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
