/**
 * Events written straight to the store in a test, as ingest would leave them: the event, its raw record in the side
 * table and the rollups (rebuilt for the spaces written), so every read (page, detail, histogram, facets) sees them.
 */
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
