/** Members and pending invitations of the URL's space, and the changes an admin or the owner makes to them. */
import type { Role } from '../../contract/constants/roles.ts';
import type { InviteBody } from '../../contract/members.ts';
import { call, client } from '../lib/api.ts';
import { apiStore, invalidateApi } from './fetcher.ts';
import { $spaceId } from './route.ts';
import { $space, $spaces } from './space.ts';

/** Members by join date. */
export const $members = apiStore('members', [$spaceId], (spaceId) =>
  call(client.spaces[':spaceId'].members.$get({ param: { spaceId } })),
);

/** Invitations not yet accepted, revoked or expired. */
export const $invitations = apiStore('invitations', [$spaceId], (spaceId) =>
  call(client.spaces[':spaceId'].invitations.$get({ param: { spaceId } })),
);

// Writes: each sends one change, then the members, the invitations and the caller's role in the space refresh,
// whether the change went through or was refused (the lists may have moved meanwhile).

async function changing<T>(change: Promise<T>): Promise<T> {
  try {
    return await change;
  } finally {
    invalidateApi($space, $members, $invitations);
  }
}

/** Invites an address with a role; the invitation sent is the answer. */
export function inviteMember(spaceId: string, body: InviteBody) {
  return changing(call(client.spaces[':spaceId'].invitations.$post({ param: { spaceId }, json: body })));
}

/** Gives a member another role. */
export function changeMemberRole(spaceId: string, userId: string, role: Role) {
  return changing(
    call(client.spaces[':spaceId'].members[':userId'].$patch({ param: { spaceId, userId }, json: { role } })),
  );
}

/** Removes a member from the space. */
export function removeMember(spaceId: string, userId: string) {
  return changing(call(client.spaces[':spaceId'].members[':userId'].$delete({ param: { spaceId, userId } })));
}

/** Revokes an invitation not yet accepted. */
export function revokeInvitation(spaceId: string, invitationId: string) {
  return changing(
    call(client.spaces[':spaceId'].invitations[':invitationId'].$delete({ param: { spaceId, invitationId } })),
  );
}

/** The owner hands the space to another member and becomes an admin; the /spaces cards show the new role too. */
export async function transferOwnership(spaceId: string, userId: string): Promise<void> {
  await changing(call(client.spaces[':spaceId'].transfer.$post({ param: { spaceId }, json: { userId } })));
  invalidateApi($spaces);
}
