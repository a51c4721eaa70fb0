import { Ok, SpaceParams } from '../../contract/common.ts';
import {
  CreateSavedSearchBody,
  SavedSearch,
  SavedSearchListQuery,
  SavedSearchPage,
  SavedSearchParams,
  UpdateSavedSearchBody,
} from '../../contract/saved-searches.ts';
import { inSpace } from '../caller.ts';
import { body, createRouter, json, route } from '../router.ts';
import {
  createSavedSearch,
  deleteSavedSearch,
  listSavedSearches,
  updateSavedSearch,
} from '../services/events/saved-searches.ts';

/** Saved searches of the event log (docs/product.md §2: viewers list them, analysts and up save and delete). */
export const savedSearchRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/saved-searches',
      summary: 'Saved searches of the event log, by name',
      request: { params: SpaceParams, query: SavedSearchListQuery },
      responses: { 200: json(SavedSearchPage, 'One page, by name ignoring case') },
    }),
    async (c) => c.json(await listSavedSearches(inSpace(c), c.req.valid('query')), 200),
  )
  .openapi(
    route('analyst', {
      method: 'post',
      path: '/{spaceId}/saved-searches',
      summary: 'Save a search: a name unique in the space, a query and a relative range or from/to',
      request: { params: SpaceParams, body: body(CreateSavedSearchBody) },
      responses: { 201: json(SavedSearch, 'The saved search') },
    }),
    async (c) => c.json(await createSavedSearch(inSpace(c), c.req.valid('json')), 201),
  )
  .openapi(
    route('analyst', {
      method: 'patch',
      path: '/{spaceId}/saved-searches/{id}',
      summary: 'Rename a saved search, change its query, or replace its range',
      request: { params: SavedSearchParams, body: body(UpdateSavedSearchBody) },
      responses: { 200: json(SavedSearch, 'The saved search') },
    }),
    async (c) => c.json(await updateSavedSearch(inSpace(c), c.req.valid('param').id, c.req.valid('json')), 200),
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
      await deleteSavedSearch(inSpace(c), c.req.valid('param').id);
      return c.json({ ok: true as const }, 200);
    },
  );
