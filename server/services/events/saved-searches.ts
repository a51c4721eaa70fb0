/** Saved searches of the event log (docs/product.md §2): a name unique in the space, a query and a range. */
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  CreateSavedSearchBody,
  SavedSearch,
  SavedSearchListQuery,
  SavedSearchPage,
  UpdateSavedSearchBody,
} from '../../../contract/saved-searches.ts';
import type { SpaceCaller } from '../../caller.ts';
import type { Executor } from '../../db/database.ts';
import { type SavedSearchRow, savedSearches } from '../../db/schema/saved-searches.ts';
import { ApiError, fieldError, notFound } from '../../errors.ts';
import { recordActivity } from '../activity/record.ts';
import { isUniqueViolation } from '../shared/db-errors.ts';
import { parsedQuery } from './filters.ts';

/** A saved search as the API shows it. */
function savedSearchView(row: SavedSearchRow): SavedSearch {
  return {
    id: row.id,
    spaceId: row.spaceId,
    name: row.name,
    query: row.query,
    range: row.range,
    from: row.rangeFrom?.toISOString() ?? null,
    to: row.rangeTo?.toISOString() ?? null,
    createdById: row.createdById,
    createdByName: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function duplicateName(name: string): ApiError {
  const message = `A saved search named “${name}” already exists in this space; choose another name.`;
  return new ApiError(409, 'name_taken', message, { fields: { name: message } });
}

/** The stored range columns of a body's range: relative, or absolute from/to. */
function rangeColumns(input: {
  range?: SavedSearchRow['range'] | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
}) {
  if (input.range) return { range: input.range, rangeFrom: null, rangeTo: null };
  return {
    range: null,
    rangeFrom: input.from ? new Date(input.from) : null,
    rangeTo: input.to ? new Date(input.to) : null,
  };
}

async function savedSearchOf(db: Executor, spaceId: string, id: string): Promise<SavedSearchRow> {
  const [row] = await db
    .select()
    .from(savedSearches)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.spaceId, spaceId)));
  if (!row) throw notFound('saved search');
  return row;
}

// Byte order (collation "C"): the same on every server, and the cursor compares as the list sorts.
const byName = sql`lower(${savedSearches.name}) collate "C"`;

/** The cursor after a name: names are unique per space ignoring case, so the lowered name alone is the key. */
function decodeNameCursor(cursor: string): string {
  const name = Buffer.from(cursor, 'base64url').toString('utf8');
  // Round-trips only as UTF-8 the server wrote; a NUL no name holds would fail the statement.
  if (!name || name.includes('\0') || Buffer.from(name, 'utf8').toString('base64url') !== cursor) {
    throw fieldError('cursor', 'This cursor is not valid; start from the first page.');
  }
  return name;
}

/** One page of the space's saved searches, by name ignoring case. */
export async function listSavedSearches(
  sc: SpaceCaller,
  q: z.infer<typeof SavedSearchListQuery>,
): Promise<SavedSearchPage> {
  const where = [eq(savedSearches.spaceId, sc.space.id)];
  if (q.cursor) where.push(gt(byName, decodeNameCursor(q.cursor)));
  const rows = await sc.deps.db
    .select()
    .from(savedSearches)
    .where(and(...where))
    .orderBy(asc(byName))
    .limit(q.limit + 1);
  const items = rows.slice(0, q.limit);
  const last = items.at(-1);
  const nextCursor =
    rows.length > q.limit && last ? Buffer.from(last.name.toLowerCase(), 'utf8').toString('base64url') : null;
  return { items: items.map(savedSearchView), nextCursor };
}

/** Saves a search; its query must parse and its name be new in the space. */
export async function createSavedSearch(
  sc: SpaceCaller,
  input: z.infer<typeof CreateSavedSearchBody>,
): Promise<SavedSearch> {
  parsedQuery(input.query, 'query');
  const { space, user } = sc;
  const at = sc.deps.now();
  try {
    return await sc.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(savedSearches)
        .values({
          spaceId: space.id,
          name: input.name,
          query: input.query,
          ...rangeColumns(input),
          createdById: user.id,
          createdByName: user.name,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      if (!row) throw new Error('insert returned nothing');
      const view = savedSearchView(row);
      await recordActivity(tx, sc.actor, {
        spaceId: space.id,
        action: 'saved_search.create',
        objectType: 'saved_search',
        objectId: row.id,
        change: { name: view.name, query: view.query, range: view.range, from: view.from, to: view.to },
      });
      return view;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(input.name);
    throw error;
  }
}

/** Renames a saved search, changes its query, or replaces its range; the audit records what changed. */
export async function updateSavedSearch(
  sc: SpaceCaller,
  id: string,
  input: z.infer<typeof UpdateSavedSearchBody>,
): Promise<SavedSearch> {
  if (input.query !== undefined) parsedQuery(input.query, 'query');
  const { space } = sc;
  const rangeGiven = input.range !== undefined || input.from !== undefined || input.to !== undefined;
  try {
    return await sc.deps.db.transaction(async (tx) => {
      const before = await savedSearchOf(tx, space.id, id);
      const [row] = await tx
        .update(savedSearches)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.query !== undefined ? { query: input.query } : {}),
          ...(rangeGiven ? rangeColumns(input) : {}),
          updatedAt: sc.deps.now(),
        })
        .where(eq(savedSearches.id, before.id))
        .returning();
      if (!row) throw notFound('saved search');
      const old = savedSearchView(before);
      const view = savedSearchView(row);
      const change: Record<string, { from: unknown; to: unknown }> = {};
      for (const key of ['name', 'query', 'range', 'from', 'to'] as const) {
        if (old[key] !== view[key]) change[key] = { from: old[key], to: view[key] };
      }
      await recordActivity(tx, sc.actor, {
        spaceId: space.id,
        action: 'saved_search.update',
        objectType: 'saved_search',
        objectId: row.id,
        change,
      });
      return view;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(input.name ?? '');
    throw error;
  }
}

/** Deletes a saved search. */
export async function deleteSavedSearch(sc: SpaceCaller, id: string): Promise<void> {
  const { space } = sc;
  await sc.deps.db.transaction(async (tx) => {
    const row = await savedSearchOf(tx, space.id, id);
    await tx.delete(savedSearches).where(eq(savedSearches.id, row.id));
    await recordActivity(tx, sc.actor, {
      spaceId: space.id,
      action: 'saved_search.delete',
      objectType: 'saved_search',
      objectId: row.id,
      change: { name: row.name, query: row.query },
    });
  });
}
