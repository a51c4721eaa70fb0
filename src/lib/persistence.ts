/** Persisted UI state (last space, list preferences) in the storage the runtime config names: local, session or cookie. */
import type { CookieOptions, StorageKind } from './config.ts';

/** A string key-value store. */
export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

function webStorage(storage: () => Storage): KeyValueStore {
  return {
    get: (key) => {
      try {
        return storage().getItem(key);
      } catch {
        return null;
      }
    },
    set: (key, value) => {
      try {
        storage().setItem(key, value);
      } catch {
        // Storage full or blocked: the state lives for this page only.
      }
    },
    remove: (key) => {
      try {
        storage().removeItem(key);
      } catch {
        // Nothing to remove.
      }
    },
  };
}

/** The `Set-Cookie`-style attribute string for a persisted cookie. */
export function cookieAttributes(options: CookieOptions, maxAgeSeconds: number): string {
  const parts = [
    `Path=${options.path}`,
    `Max-Age=${maxAgeSeconds}`,
    `SameSite=${options.sameSite[0]?.toUpperCase()}${options.sameSite.slice(1)}`,
  ];
  if (options.domain) parts.push(`Domain=${options.domain}`);
  if (options.secure || options.sameSite === 'none') parts.push('Secure');
  return parts.join('; ');
}

function cookieStore(doc: Document, options: CookieOptions): KeyValueStore {
  const read = (key: string): string | null => {
    for (const pair of doc.cookie.split('; ')) {
      const eq = pair.indexOf('=');
      if (eq > 0 && decodeURIComponent(pair.slice(0, eq)) === key) return decodeURIComponent(pair.slice(eq + 1));
    }
    return null;
  };
  return {
    get: read,
    set: (key, value) => {
      doc.cookie = `${encodeURIComponent(key)}=${encodeURIComponent(value)}; ${cookieAttributes(options, Math.round(options.maxAgeDays * 86_400))}`;
    },
    remove: (key) => {
      doc.cookie = `${encodeURIComponent(key)}=; ${cookieAttributes(options, 0)}`;
    },
  };
}

/** The store for a configured storage kind. */
export function createKeyValueStore(kind: StorageKind, cookie: CookieOptions, doc: Document = document): KeyValueStore {
  if (kind === 'cookie') return cookieStore(doc, cookie);
  return webStorage(() => (kind === 'session' ? sessionStorage : localStorage));
}
