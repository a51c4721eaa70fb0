import { Ok, SpaceParams } from '../../contract/common.ts';
import {
  CreatedSource,
  CreateSourceBody,
  Source,
  SourceDetail,
  SourceList,
  SourceParams,
  TestSourceAnswer,
  TestSourceBody,
  UpdateSourceBody,
} from '../../contract/sources.ts';
import { inSpace } from '../caller.ts';
import { body, createRouter, json, route } from '../router.ts';
import {
  createSource,
  deleteSource,
  listSources,
  rotateSourceToken,
  sourceDetail,
  testSource,
  updateSource,
} from '../services/sources/sources.ts';

/** Log sources of a space (docs/product.md §7): viewers read, admins create, edit, rotate and delete. */
export const sourceRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/sources',
      summary: 'Log sources with their ingest rate (events in the last hour), last event and errors in 24 h',
      request: { params: SpaceParams },
      responses: { 200: json(SourceList, 'Sources by name') },
    }),
    async (c) => c.json(await listSources(inSpace(c)), 200),
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/sources',
      summary: 'Create a source; the answer carries its ingest token, shown this once',
      request: { params: SpaceParams, body: body(CreateSourceBody) },
      responses: { 201: json(CreatedSource, 'The source and its token') },
    }),
    async (c) => c.json(await createSource(inSpace(c), c.req.valid('json')), 201),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/sources/{id}',
      summary: 'One source with its ingest figures and its most recent refused lines',
      request: { params: SourceParams },
      responses: { 200: json(SourceDetail, 'The source') },
    }),
    async (c) => c.json(await sourceDetail(inSpace(c), c.req.valid('param').id), 200),
  )
  .openapi(
    route('admin', {
      method: 'patch',
      path: '/{spaceId}/sources/{id}',
      summary: 'Rename a source, change its kind or retention (null: the space’s)',
      request: { params: SourceParams, body: body(UpdateSourceBody) },
      responses: { 200: json(Source, 'The source') },
    }),
    async (c) => c.json(await updateSource(inSpace(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    route('admin', {
      method: 'delete',
      path: '/{spaceId}/sources/{id}',
      summary: 'Delete a source and its events',
      request: { params: SourceParams },
      responses: { 200: json(Ok, 'Deleted') },
    }),
    async (c) => {
      await deleteSource(inSpace(c), c.req.valid('param').id);
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/sources/{id}/token',
      summary: 'Rotate the ingest token: the old one stops working at once; the new one is shown this once',
      request: { params: SourceParams },
      responses: { 200: json(CreatedSource, 'The source and its new token') },
    }),
    async (c) => c.json(await rotateSourceToken(inSpace(c), c.req.valid('param').id), 200),
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/sources/{id}/test',
      summary: 'Parser test: the sample is parsed line by line with the source’s kind; nothing is stored',
      request: { params: SourceParams, body: body(TestSourceBody) },
      responses: { 200: json(TestSourceAnswer, 'The normalised events and the refused lines') },
    }),
    async (c) => c.json(await testSource(inSpace(c), c.req.valid('param').id, c.req.valid('json').sample), 200),
  );
