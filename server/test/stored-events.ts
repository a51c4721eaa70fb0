/**
 * Events written straight to the store in a test, as ingest would leave them: the event, its raw record in the side
 * table and the rollups (rebuilt for the spaces written), so every read (page, detail, histogram, facets) sees them.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { eventRaw, events, type NewEventRow } from '../db/schema/events.ts';
import { rebuildRollups } from '../services/events/rollups.ts';

/** An event to store, with its raw record (default `{}`). */
export type StoredEventInput = NewEventRow & { raw?: unknown };

/** Stores events with their raw records and rebuilds the rollups of their spaces; answers the stored rows. */
export async function storeEvents(db: Executor, rows: StoredEventInput[]) {
  if (rows.length === 0) return [];
  const stored = await db
    .insert(events)
    .values(rows.map(({ raw: _raw, ...row }) => row))
    .returning();
  await db.insert(eventRaw).values(
    stored.map((row, i) => ({
      spaceId: row.spaceId,
      time: row.time,
      id: row.id,
      sourceId: row.sourceId,
      raw: rows[i]?.raw ?? {},
    })),
  );
  for (const spaceId of new Set(stored.map((row) => row.spaceId))) await rebuildRollups(db, spaceId);
  return stored;
}

/**
 * After a test wrote events with plain SQL (`insert into events ... select ... generate_series`): gives each event
 * of the space without a raw record an empty one, and rebuilds the space's rollups unless `rollups` is false (a
 * test's deliberately impossible times, such as -infinity, have no bucket).
 */
export async function completeStoredEvents(db: Executor, spaceId: string, options: { rollups?: boolean } = {}) {
  await db.execute(sql`
    insert into event_raw (space_id, time, id, source_id, raw)
    select e.space_id, e.time, e.id, e.source_id, '{}'::jsonb from events e
    where e.space_id = ${spaceId}::uuid
      and not exists (select 1 from event_raw r where r.space_id = e.space_id and r.id = e.id and r.time = e.time)`);
  if (options.rollups !== false) await rebuildRollups(db, spaceId);
}
