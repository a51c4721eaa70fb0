import { Ok, SpaceParams } from '../../contract/common.ts';
import {
  Invitation,
  InvitationList,
  InvitationParams,
  InviteBody,
  Member,
  MemberList,
  MemberParams,
  UpdateMemberBody,
} from '../../contract/members.ts';
import { inSpace } from '../caller.ts';
import { body, createRouter, json, route } from '../router.ts';
import { invite, listInvitations, revokeInvitation } from '../services/spaces/invitations.ts';
import { changeRole, leaveSpace, listMembers, removeMember } from '../services/spaces/members.ts';

/** Members and invitations of a space, per the role table of docs/product.md §2. */
export const memberRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/members',
      summary: 'Members of the space',
      request: { params: SpaceParams },
      responses: { 200: json(MemberList, 'Members by join date') },
    }),
    async (c) => c.json(await listMembers(inSpace(c)), 200),
  )
  .openapi(
    route('admin', {
      method: 'patch',
      path: '/{spaceId}/members/{userId}',
      summary: 'Change a role; only owners touch the owner role, and the last owner stays owner',
      request: { params: MemberParams, body: body(UpdateMemberBody) },
      responses: { 200: json(Member, 'The member') },
    }),
    async (c) => c.json(await changeRole(inSpace(c), c.req.valid('param').userId, c.req.valid('json').role), 200),
  )
  .openapi(
    route('admin', {
      method: 'delete',
      path: '/{spaceId}/members/{userId}',
      summary: 'Remove a member; removing an owner needs an owner, and the last owner cannot go',
      request: { params: MemberParams },
      responses: { 200: json(Ok, 'Removed') },
    }),
    async (c) => {
      await removeMember(inSpace(c), c.req.valid('param').userId);
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('viewer', {
      method: 'post',
      path: '/{spaceId}/leave',
      summary: 'Leave the space; the last owner must transfer ownership first',
      request: { params: SpaceParams },
      responses: { 200: json(Ok, 'Left') },
    }),
    async (c) => {
      await leaveSpace(inSpace(c));
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/invitations',
      summary: 'Pending invitations of the space',
      request: { params: SpaceParams },
      responses: { 200: json(InvitationList, 'Pending invitations, newest first') },
    }),
    async (c) => c.json(await listInvitations(inSpace(c)), 200),
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/invitations',
      summary:
        'Invite by email with a role (single-use link, 7 days); inviting again replaces the pending invitation (409 when the caller may not give its role)',
      request: { params: SpaceParams, body: body(InviteBody) },
      responses: { 201: json(Invitation, 'The invitation') },
    }),
    async (c) => c.json(await invite(inSpace(c), c.req.valid('json')), 201),
  )
  .openapi(
    route('admin', {
      method: 'delete',
      path: '/{spaceId}/invitations/{invitationId}',
      summary: 'Revoke a pending invitation',
      request: { params: InvitationParams },
      responses: { 200: json(Ok, 'Revoked') },
    }),
    async (c) => {
      await revokeInvitation(inSpace(c), c.req.valid('param').invitationId);
      return c.json({ ok: true as const }, 200);
    },
  );
