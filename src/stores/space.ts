/** The space the user works in: its id from the URL, the space itself from the API, and the last one used. */
import type { UpdateSpaceBody } from '../../contract/spaces.ts';
import { call, client } from '../lib/api.ts';
import { $config, ensureConfig } from '../lib/config.ts';
import { createKeyValueStore } from '../lib/persistence.ts';
import { apiStore, invalidateApi } from './fetcher.ts';
import { $spaceId } from './route.ts';

/** Key of the last used space in the configured persistence storage. */
export const LAST_SPACE_KEY = 'spaceguard:last-space';

function store() {
  const { storage, cookie } = $config.get().persistence;
  return createKeyValueStore(storage, cookie);
}

/** The last space the user opened, from the configured storage. */
export function readLastSpaceId(): string | null {
  return store().get(LAST_SPACE_KEY);
}

/** Remembers a space the user opened, in the storage the runtime config names (for /auth/landing). */
export function rememberSpace(spaceId: string): void {
  void ensureConfig().then(() => store().set(LAST_SPACE_KEY, spaceId));
}

/** The space of the URL, with the caller's role in it. */
export const $space = apiStore('space', [$spaceId], (spaceId) =>
  call(client.spaces[':spaceId'].$get({ param: { spaceId } })),
);

/** The signed-in user's spaces, as the /spaces cards and the space switcher show them. */
export const $spaces = apiStore('spaces', [], () => call(client.spaces.$get()));

/** Creates a space the user owns (the screen then opens it, so nothing here is refreshed). */
export function createSpace(name: string) {
  return call(client.spaces.$post({ json: { name } }));
}

// Writes to the space itself: each refreshes what shows the space (this screen, the switcher, the /spaces cards).

/** Saves the space's name, description, time zone or retention; the saved space is the answer. */
export async function updateSpace(spaceId: string, body: UpdateSpaceBody) {
  const updated = await call(client.spaces[':spaceId'].$patch({ param: { spaceId }, json: body }));
  invalidateApi($space, $spaces);
  return updated;
}

/** Deletes the space for every member once its exact name is confirmed (the screen then leaves it). */
export async function deleteSpace(spaceId: string, confirmName: string): Promise<void> {
  await call(client.spaces[':spaceId'].$delete({ param: { spaceId }, json: { confirmName } }));
}

/** The signed-in user leaves the space (the screen then leaves it). */
export async function leaveSpace(spaceId: string): Promise<void> {
  await call(client.spaces[':spaceId'].leave.$post({ param: { spaceId } }));
}

// An invitation link from mail (`/spaces?invitation=TOKEN`). The typed client puts params in the path as they are:
// the token from the link is encoded first.

/** The space, role and address an invitation link offers. */
export function previewInvitation(token: string) {
  return call(client.invitations[':token'].$get({ param: { token: encodeURIComponent(token) } }));
}

/** Accepts an invitation link for the signed-in user; the id of the space joined is the answer. */
export async function acceptInvitationLink(token: string): Promise<string> {
  const accepted = await call(
    client.invitations[':token'].accept.$post({ param: { token: encodeURIComponent(token) } }),
  );
  return accepted.spaceId;
}
