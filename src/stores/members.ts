/** Members and pending invitations of the URL's space. */
import { call, client } from '../lib/api.ts';
import { apiStore } from './fetcher.ts';
import { $spaceId } from './route.ts';

/** Members by join date. */
export const $members = apiStore('members', [$spaceId], (spaceId) =>
  call(client.spaces[':spaceId'].members.$get({ param: { spaceId } })),
);

/** Invitations not yet accepted, revoked or expired. */
export const $invitations = apiStore('invitations', [$spaceId], (spaceId) =>
  call(client.spaces[':spaceId'].invitations.$get({ param: { spaceId } })),
);
