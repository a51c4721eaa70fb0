/** The signed-in user, loaded once per page; null when signed out. */
import { atom } from 'nanostores';
import type { Me } from '../../contract/me.ts';
import { ApiError, api } from '../lib/api.ts';
import { parseColorMode } from '../lib/color-mode.ts';
import { $colorMode } from './theme.ts';

/** undefined while loading, null when signed out. */
export const $me = atom<Me | null | undefined>(undefined);

let loading: Promise<Me | null> | undefined;

/** Loads the signed-in user once; 401 means signed out. Other failures are thrown. */
export function loadMe(force = false): Promise<Me | null> {
  if (force) loading = undefined;
  loading ??= api<Me>('/me').then(
    (me) => {
      $me.set(me);
      // The profile's colour mode follows the user from device to device.
      $colorMode.set(parseColorMode(me.colorMode));
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

/** Sends a signed-out visitor to sign in, coming back here afterwards. */
export function signInUrl(here: Location = location): string {
  return `/auth/login?next=${encodeURIComponent(here.pathname + here.search)}`;
}

/** A same-site path to go to after signing in; anything else falls back to /auth/landing. */
export function safeNext(value: string | null): string {
  if (value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) return value;
  return '/auth/landing';
}
