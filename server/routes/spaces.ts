import { Ok, SpaceParams } from '../../contract/common.ts';
import {
  CreateSpaceBody,
  DeleteSpaceBody,
  Space,
  SpaceCardList,
  TransferSpaceBody,
  UpdateSpaceBody,
} from '../../contract/spaces.ts';
import { inSpace, signedIn } from '../caller.ts';
import { body, createRouter, json, route } from '../router.ts';
import {
  createSpace,
  deleteSpace,
  listSpaceCards,
  openSpace,
  transferSpace,
  updateSpace,
} from '../services/spaces/spaces.ts';

/** Spaces: list as cards, create, read, settings, delete after typing the name, transfer ownership. */
export const spaceRoutes = createRouter()
  .openapi(
    route('user', {
      method: 'get',
      path: '/',
      summary: 'The spaces the caller belongs to, as cards',
      responses: { 200: json(SpaceCardList, 'Cards, by name') },
    }),
    async (c) => c.json(await listSpaceCards(signedIn(c)), 200),
  )
  .openapi(
    route('user', {
      method: 'post',
      path: '/',
      summary: 'Create a space (free plan); the caller becomes its owner',
      request: { body: body(CreateSpaceBody) },
      responses: { 201: json(Space, 'The new space') },
    }),
    async (c) => c.json(await createSpace(signedIn(c), c.req.valid('json')), 201),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}',
      summary: 'One space; remembered as the last used space',
      request: { params: SpaceParams },
      responses: { 200: json(Space, 'The space') },
    }),
    async (c) => c.json(await openSpace(inSpace(c)), 200),
  )
  .openapi(
    route('admin', {
      method: 'patch',
      path: '/{spaceId}',
      summary: 'Change name, description (Markdown), time zone, retention (within the plan)',
      request: { params: SpaceParams, body: body(UpdateSpaceBody) },
      responses: { 200: json(Space, 'The updated space') },
    }),
    async (c) => c.json(await updateSpace(inSpace(c), c.req.valid('json')), 200),
  )
  .openapi(
    route('owner', {
      method: 'delete',
      path: '/{spaceId}',
      summary: 'Delete the space and everything in it; `confirmName` must equal its name',
      request: { params: SpaceParams, body: body(DeleteSpaceBody) },
      responses: { 200: json(Ok, 'Deleted') },
    }),
    async (c) => {
      await deleteSpace(inSpace(c), c.req.valid('json').confirmName);
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('owner', {
      method: 'post',
      path: '/{spaceId}/transfer',
      summary: 'Transfer ownership to another member; the caller becomes admin',
      request: { params: SpaceParams, body: body(TransferSpaceBody) },
      responses: { 200: json(Ok, 'Transferred') },
    }),
    async (c) => {
      await transferSpace(inSpace(c), c.req.valid('json').userId);
      return c.json({ ok: true as const }, 200);
    },
  );
