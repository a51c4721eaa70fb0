/** The signed-in user's own resources under /me: sessions, API tokens and invitations waiting for them. */
import type { CreateApiTokenBody, UpdateMeBody } from '../../contract/me.ts';
import { call, client } from '../lib/api.ts';
import { apiStore, invalidateApi } from './fetcher.ts';
import { $me } from './session.ts';

/** Active sessions, the current one marked. */
export const $sessions = apiStore('sessions', [], () => call(client.me.sessions.$get()));

/** Personal API tokens (their secrets are shown once, at creation, never listed). */
export const $apiTokens = apiStore('api-tokens', [], () => call(client.me.tokens.$get()));

/** Invitations sent to the user's address and not yet accepted, for the /spaces screen. */
export const $myInvitations = apiStore('my-invitations', [], () => call(client.me.invitations.$get()));

// Writes: each sends one change and refreshes what it changes.

/** Creates a personal API token; its secret is in the answer, once. The tokens refresh. */
export async function createApiToken(body: CreateApiTokenBody) {
  const created = await call(client.me.tokens.$post({ json: body }));
  invalidateApi($apiTokens);
  return created;
}

/** Revokes a token; the tokens refresh whether or not it succeeded. */
export async function revokeApiToken(id: string): Promise<void> {
  try {
    await call(client.me.tokens[':id'].$delete({ param: { id } }));
  } finally {
    invalidateApi($apiTokens);
  }
}

/** Ends another session of the user; the sessions refresh whether or not it succeeded. */
export async function endSession(id: string): Promise<void> {
  try {
    await call(client.me.sessions[':id'].$delete({ param: { id } }));
  } finally {
    invalidateApi($sessions);
  }
}

/** Accepts an invitation sent to the user; on failure the invitations refresh (it may be gone). */
export async function acceptMyInvitation(id: string): Promise<void> {
  try {
    await call(client.me.invitations[':id'].accept.$post({ param: { id } }));
  } catch (failure) {
    invalidateApi($myInvitations);
    throw failure;
  }
}

/** Changes the user's name, address (confirmed by mail) or password; the signed-in user is the answer. */
export async function updateMe(body: UpdateMeBody) {
  const me = await call(client.me.$patch({ json: body }));
  $me.set(me);
  return me;
}

/** Confirms a new address with the token its mail carried. */
export async function confirmEmail(token: string): Promise<void> {
  await call(client.auth['confirm-email'].$post({ json: { token } }));
}

/** Reads the signed-in user again into `$me`. */
export async function reloadMe(): Promise<void> {
  $me.set(await call(client.me.$get()));
}
