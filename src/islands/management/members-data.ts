/** Everything the members screen shows, loaded together. */
import type { Me } from '../../../contract/me.ts';
import type { Invitation, Member } from '../../../contract/members.ts';
import type { Space } from '../../../contract/spaces.ts';
import { ApiError, api } from '../../lib/api.ts';
import { loadMe } from '../../stores/session.ts';

export interface MembersData {
  readonly me: Me;
  readonly space: Space;
  readonly members: readonly Member[];
  readonly invitations: readonly Invitation[];
}

/** The signed-in user, or a 401 ApiError so every screen handles "signed out" in one place. */
export async function requireMe(): Promise<Me> {
  const me = await loadMe();
  if (!me) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
  return me;
}

/** Loads the space (for the caller's role), its members and its pending invitations. */
export async function loadMembersData(spaceId: string): Promise<MembersData> {
  const me = await requireMe();
  const [space, members, invitations] = await Promise.all([
    api<Space>(`/spaces/${spaceId}`),
    api<{ items: Member[] }>(`/spaces/${spaceId}/members`),
    api<{ items: Invitation[] }>(`/spaces/${spaceId}/invitations`),
  ]);
  return { me, space, members: members.items, invitations: invitations.items };
}
