/** The signed-in user, loaded once per page; null when signed out. */
import { atom } from 'nanostores';
import type { Me } from '../../contract/me.ts';
import { ApiError, call, client } from '../lib/api.ts';
import { type ColorMode, parseColorMode } from '../lib/color-mode.ts';
import { $colorMode } from './theme.ts';

/** undefined while loading, null when signed out. */
export const $me = atom<Me | null | undefined>(undefined);

let loading: Promise<Me | null> | undefined;

/** Loads the signed-in user once; 401 means signed out. Other failures are thrown. */
export function loadMe(force = false): Promise<Me | null> {
  if (force) loading = undefined;
  loading ??= call(client.me.$get()).then(
    (me) => {
      $me.set(me);
      // This device's preference wins once signed in (sign-in itself applies the profile's); keep the profile in step.
      saveColorMode($colorMode.get());
      return me;
    },
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 401) {
        $me.set(null);
        return null;
      }
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Why the last colour mode change could not be saved to the profile, if it could not. */
export const $colorModeSyncError = atom<string | null>(null);

/** Applies the profile's colour mode on this device: called when the user signs in. */
export function adoptProfileColorMode(me: Me): void {
  $me.set(me);
  $colorMode.set(parseColorMode(me.colorMode));
}

/** Saves a colour mode to the signed-in user's profile when it differs. */
function saveColorMode(mode: ColorMode): void {
  const me = $me.get();
  if (!me || me.colorMode === mode) return;
  $me.set({ ...me, colorMode: mode });
  call(client.me.$patch({ json: { colorMode: mode } })).then(
    () => $colorModeSyncError.set(null),
    (error: unknown) =>
      $colorModeSyncError.set(
        `Your colour mode was not saved to your profile: ${error instanceof Error ? error.message : String(error)}`,
      ),
  );
}

// The colour mode follows the signed-in user: a change from any toggle is saved to the profile.
$colorMode.listen(saveColorMode);

/** Ends this session on the server, then opens the sign-in page; a failure is thrown for the caller to show. */
export async function signOut(): Promise<void> {
  await call(client.auth.logout.$post());
  location.assign('/auth/login');
}

/** Sends a signed-out visitor to sign in, coming back here afterwards. */
export function signInUrl(here: Location = location): string {
  return `/auth/login?next=${encodeURIComponent(here.pathname + here.search)}`;
}

/**
 * A same-origin path to go to after signing in, normalised as the browser will read it; anything else (another
 * origin however spelt: `//`, `/\`, tabs or newlines the URL parser drops, `javascript:`, userinfo) falls back
 * to /auth/landing.
 */
export function safeNext(value: string | null, origin: string = location.origin): string {
  const fallback = '/auth/landing';
  if (!value?.startsWith('/')) return fallback;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return fallback;
  }
  const path = url.pathname + url.search + url.hash;
  // A path that still starts with // (left by dot segments: `/.//evil.test`) is protocol-relative once assigned.
  if (url.origin !== new URL(origin).origin || !path.startsWith('/') || path.startsWith('//')) return fallback;
  return path;
}
