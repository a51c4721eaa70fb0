import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { Ok, SpaceParams } from '../../contract/common.ts';
import {
  CreateSavedSearchBody,
  SavedSearch,
  SavedSearchListQuery,
  SavedSearchPage,
  SavedSearchParams,
  UpdateSavedSearchBody,
} from '../../contract/saved-searches.ts';
import type { Executor } from '../db/database.ts';
import { type SavedSearchRow, savedSearches } from '../db/schema/saved-searches.ts';
import { ApiError, fieldError, notFound } from '../errors.ts';
import { body, createRouter, json, route } from '../router.ts';
import { recordActivity } from '../services/activity/record.ts';
import { isUniqueViolation } from '../services/shared/db-errors.ts';
import { parsedQuery } from './events.ts';

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
  if (!name || Buffer.from(name, 'utf8').toString('base64url') !== cursor) {
    throw fieldError('cursor', 'This cursor is not valid; start from the first page.');
  }
  return name;
}

/** Saved searches of the event log (PRODUCT.md §2: viewers list them, analysts and up save and delete). */
export const savedSearchRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/saved-searches',
      summary: 'Saved searches of the event log, by name',
      request: { params: SpaceParams, query: SavedSearchListQuery },
      responses: { 200: json(SavedSearchPage, 'One page, by name ignoring case') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const where = [eq(savedSearches.spaceId, c.var.space.id)];
      if (q.cursor) where.push(gt(byName, decodeNameCursor(q.cursor)));
      const rows = await c.var.deps.db
        .select()
        .from(savedSearches)
        .where(and(...where))
        .orderBy(asc(byName))
        .limit(q.limit + 1);
      const items = rows.slice(0, q.limit);
      const last = items.at(-1);
      const nextCursor =
        rows.length > q.limit && last ? Buffer.from(last.name.toLowerCase(), 'utf8').toString('base64url') : null;
      return c.json({ items: items.map(savedSearchView), nextCursor }, 200);
    },
  )
  .openapi(
    route('analyst', {
      method: 'post',
      path: '/{spaceId}/saved-searches',
      summary: 'Save a search: a name unique in the space, a query and a relative range or from/to',
      request: { params: SpaceParams, body: body(CreateSavedSearchBody) },
      responses: { 201: json(SavedSearch, 'The saved search') },
    }),
    async (c) => {
      const input = c.req.valid('json');
      parsedQuery(input.query, 'query');
      const space = c.var.space;
      const actor = c.var.actor;
      const at = c.var.deps.now();
      try {
        const created = await c.var.deps.db.transaction(async (tx) => {
          const [row] = await tx
            .insert(savedSearches)
            .values({
              spaceId: space.id,
              name: input.name,
              query: input.query,
              ...rangeColumns(input),
              createdById: c.var.user?.id ?? null,
              createdByName: c.var.user?.name ?? actor.name ?? 'unknown',
              createdAt: at,
              updatedAt: at,
            })
            .returning();
          if (!row) throw new Error('insert returned nothing');
          const view = savedSearchView(row);
          await recordActivity(tx, actor, {
            spaceId: space.id,
            action: 'saved_search.create',
            objectType: 'saved_search',
            objectId: row.id,
            change: { name: view.name, query: view.query, range: view.range, from: view.from, to: view.to },
          });
          return view;
        });
        return c.json(created, 201);
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateName(input.name);
        throw error;
      }
    },
  )
  .openapi(
    route('analyst', {
      method: 'patch',
      path: '/{spaceId}/saved-searches/{id}',
      summary: 'Rename a saved search, change its query, or replace its range',
      request: { params: SavedSearchParams, body: body(UpdateSavedSearchBody) },
      responses: { 200: json(SavedSearch, 'The saved search') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const input = c.req.valid('json');
      if (input.query !== undefined) parsedQuery(input.query, 'query');
      const space = c.var.space;
      const { db, now } = c.var.deps;
      const rangeGiven = input.range !== undefined || input.from !== undefined || input.to !== undefined;
      try {
        const updated = await db.transaction(async (tx) => {
          const before = await savedSearchOf(tx, space.id, id);
          const [row] = await tx
            .update(savedSearches)
            .set({
              ...(input.name !== undefined ? { name: input.name } : {}),
              ...(input.query !== undefined ? { query: input.query } : {}),
              ...(rangeGiven ? rangeColumns(input) : {}),
              updatedAt: now(),
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
          await recordActivity(tx, c.var.actor, {
            spaceId: space.id,
            action: 'saved_search.update',
            objectType: 'saved_search',
            objectId: row.id,
            change,
          });
          return view;
        });
        return c.json(updated, 200);
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateName(input.name ?? '');
        throw error;
      }
    },
  )
  .openapi(
    route('analyst', {
      method: 'delete',
      path: '/{spaceId}/saved-searches/{id}',
      summary: 'Delete a saved search',
      request: { params: SavedSearchParams },
      responses: { 200: json(Ok, 'Deleted') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const space = c.var.space;
      await c.var.deps.db.transaction(async (tx) => {
        const row = await savedSearchOf(tx, space.id, id);
        await tx.delete(savedSearches).where(eq(savedSearches.id, row.id));
        await recordActivity(tx, c.var.actor, {
          spaceId: space.id,
          action: 'saved_search.delete',
          objectType: 'saved_search',
          objectId: row.id,
          change: { name: row.name, query: row.query },
        });
      });
      return c.json({ ok: true as const }, 200);
    },
  );
