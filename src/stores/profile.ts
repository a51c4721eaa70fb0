/** The signed-in user's own resources under /me: sessions, API tokens and invitations waiting for them. */
import { call, client } from '../lib/api.ts';
import { apiStore } from './fetcher.ts';

/** Active sessions, the current one marked. */
export const $sessions = apiStore('sessions', [], () => call(client.me.sessions.$get()));

/** Personal API tokens (their secrets are shown once, at creation, never listed). */
export const $apiTokens = apiStore('api-tokens', [], () => call(client.me.tokens.$get()));

/** Invitations sent to the user's address and not yet accepted, for the /spaces screen. */
export const $myInvitations = apiStore('my-invitations', [], () => call(client.me.invitations.$get()));
