import { z } from 'zod';
import { ActivityPage, ActivityQuery } from '../../contract/activity.ts';
import { Id, Ok } from '../../contract/common.ts';
import { ApiTokenList, CreateApiTokenBody, CreatedApiToken, Me, SessionList, UpdateMeBody } from '../../contract/me.ts';
import { AcceptedInvitation, InvitationPreviewList } from '../../contract/members.ts';
import { signedIn } from '../caller.ts';
import { body, createRouter, json, route } from '../router.ts';
import { createApiToken, listApiTokens, revokeApiToken, rotateApiToken } from '../services/accounts/api-tokens.ts';
import { meView, updateProfile } from '../services/accounts/profile.ts';
import { clearSessionCookie } from '../services/accounts/session-cookie.ts';
import { listSessions, revokeSession } from '../services/accounts/sessions.ts';
import { accountActivity } from '../services/activity/log.ts';
import { acceptInvitation, invitationsFor } from '../services/spaces/invitations.ts';

const IdParams = z.object({ id: Id });

/** The signed-in user's profile, sessions, API tokens, account events and pending invitations. */
export const meRoutes = createRouter()
  .openapi(
    route('user', {
      method: 'get',
      path: '/',
      summary: 'The signed-in user, with the last used space for /auth/landing',
      responses: { 200: json(Me, 'The user') },
    }),
    (c) => c.json(meView(signedIn(c).user), 200),
  )
  .openapi(
    route('user', {
      method: 'patch',
      path: '/',
      summary: 'Change name, colour mode; email (confirmed by mail) and password need currentPassword',
      request: { body: body(UpdateMeBody) },
      responses: { 200: json(Me, 'The updated user') },
    }),
    async (c) => c.json(await updateProfile(signedIn(c), c.req.valid('json')), 200),
  )
  .openapi(
    route('user', {
      method: 'get',
      path: '/sessions',
      summary: 'Active sessions of the signed-in user',
      responses: { 200: json(SessionList, 'Sessions, newest first') },
    }),
    async (c) => c.json(await listSessions(signedIn(c)), 200),
  )
  .openapi(
    route('user', {
      method: 'delete',
      path: '/sessions/{id}',
      summary: 'Sign out one session',
      request: { params: IdParams },
      responses: { 200: json(Ok, 'Session ended') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await revokeSession(signedIn(c), id);
      if (c.var.session?.id === id) clearSessionCookie(c);
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('user', {
      method: 'get',
      path: '/tokens',
      summary: 'Personal API tokens (secrets are never shown again)',
      responses: { 200: json(ApiTokenList, 'Tokens') },
    }),
    async (c) => c.json(await listApiTokens(signedIn(c)), 200),
  )
  .openapi(
    route('user', {
      method: 'post',
      path: '/tokens',
      summary: 'Create a personal API token; its secret is in this answer only',
      request: { body: body(CreateApiTokenBody) },
      responses: { 201: json(CreatedApiToken, 'The token and its secret') },
    }),
    async (c) => c.json(await createApiToken(signedIn(c), c.req.valid('json')), 201),
  )
  .openapi(
    route('user', {
      method: 'post',
      path: '/tokens/{id}/rotate',
      summary: 'Rotate a personal API token: the old secret stops working, the new one is in this answer only',
      request: { params: IdParams },
      responses: { 200: json(CreatedApiToken, 'The token and its new secret') },
    }),
    async (c) => c.json(await rotateApiToken(signedIn(c), c.req.valid('param').id), 200),
  )
  .openapi(
    route('user', {
      method: 'delete',
      path: '/tokens/{id}',
      summary: 'Revoke a personal API token',
      request: { params: IdParams },
      responses: { 200: json(Ok, 'Revoked') },
    }),
    async (c) => {
      await revokeApiToken(signedIn(c), c.req.valid('param').id);
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('user', {
      method: 'get',
      path: '/invitations',
      summary: 'Pending invitations addressed to the signed-in user',
      responses: { 200: json(InvitationPreviewList, 'Invitations') },
    }),
    async (c) => c.json(await invitationsFor(signedIn(c)), 200),
  )
  .openapi(
    route('user', {
      method: 'post',
      path: '/invitations/{id}/accept',
      summary: 'Accept a pending invitation addressed to the signed-in user',
      request: { params: IdParams },
      responses: { 200: json(AcceptedInvitation, 'Now a member') },
    }),
    async (c) => c.json(await acceptInvitation(signedIn(c), { id: c.req.valid('param').id }), 200),
  )
  .openapi(
    route('user', {
      method: 'get',
      path: '/activity',
      summary: "The signed-in user's account events outside spaces, newest first",
      request: { query: ActivityQuery.omit({ actor: true }) },
      responses: { 200: json(ActivityPage, 'One page') },
    }),
    async (c) => c.json(await accountActivity(signedIn(c), c.req.valid('query')), 200),
  );
