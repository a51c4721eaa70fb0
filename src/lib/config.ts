/**
 * Runtime configuration read from `/config.json`, so one build deploys to any environment: its parsing, and the one
 * loaded copy every layer reads (the API client needs it, so it lives here, below the stores).
 */
import { atom } from 'nanostores';

export type StorageKind = 'local' | 'session' | 'cookie';
export type SameSite = 'lax' | 'strict' | 'none';

export interface CookieOptions {
  /** Cookie domain; unset means the current host only. */
  readonly domain: string | null;
  readonly path: string;
  readonly sameSite: SameSite;
  readonly secure: boolean;
  /** Lifetime of persisted cookies in days. */
  readonly maxAgeDays: number;
}

export interface RuntimeConfig {
  /** Base URL of the API, absolute or relative to the site. */
  readonly apiBaseUrl: string;
  /** reCAPTCHA v3 site key; null turns the captcha off. */
  readonly captchaSiteKey: string | null;
  /** Map tile URL template (`{z}/{x}/{y}`); null draws the bundled vector country outlines instead. */
  readonly mapTileUrl: string | null;
  /** Attribution shown with the tiles. */
  readonly mapAttribution: string;
  /** Where persisted UI state (last space, table preferences) is kept. */
  readonly persistence: { readonly storage: StorageKind; readonly cookie: CookieOptions };
}

/** The documented defaults, used for every missing or malformed field. */
export const DEFAULT_CONFIG: RuntimeConfig = {
  apiBaseUrl: '/api',
  captchaSiteKey: null,
  mapTileUrl: null,
  mapAttribution: '',
  persistence: {
    storage: 'local',
    cookie: { domain: null, path: '/', sameSite: 'lax', secure: true, maxAgeDays: 365 },
  },
};

/** Where the site reads its runtime configuration. */
export const CONFIG_URL = '/config.json';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, field: string, fallback: string, problems: string[]): string {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  problems.push(`${field} must be a non-empty string`);
  return fallback;
}

function optionalText(value: unknown, field: string, problems: string[]): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string') return value.trim();
  problems.push(`${field} must be a string or null`);
  return null;
}

function oneOf<T extends string>(
  value: unknown,
  field: string,
  allowed: readonly T[],
  fallback: T,
  problems: string[],
): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  problems.push(`${field} must be one of ${allowed.join(', ')}`);
  return fallback;
}

/** Turns whatever `/config.json` held into a valid configuration, listing each field it had to replace. */
export function parseRuntimeConfig(input: unknown): { config: RuntimeConfig; problems: string[] } {
  const problems: string[] = [];
  if (!isRecord(input)) {
    return { config: DEFAULT_CONFIG, problems: ['the file must hold a JSON object'] };
  }
  const persistence = isRecord(input.persistence) ? input.persistence : {};
  if (input.persistence !== undefined && !isRecord(input.persistence)) problems.push('persistence must be an object');
  const cookie = isRecord(persistence.cookie) ? persistence.cookie : {};
  if (persistence.cookie !== undefined && !isRecord(persistence.cookie))
    problems.push('persistence.cookie must be an object');
  const defaults = DEFAULT_CONFIG.persistence.cookie;

  let secure = defaults.secure;
  if (cookie.secure !== undefined) {
    if (typeof cookie.secure === 'boolean') secure = cookie.secure;
    else problems.push('persistence.cookie.secure must be true or false');
  }
  let maxAgeDays = defaults.maxAgeDays;
  if (cookie.maxAgeDays !== undefined) {
    if (typeof cookie.maxAgeDays === 'number' && Number.isFinite(cookie.maxAgeDays) && cookie.maxAgeDays > 0) {
      maxAgeDays = cookie.maxAgeDays;
    } else {
      problems.push('persistence.cookie.maxAgeDays must be a positive number');
    }
  }

  const config: RuntimeConfig = {
    apiBaseUrl: text(input.apiBaseUrl, 'apiBaseUrl', DEFAULT_CONFIG.apiBaseUrl, problems).replace(/\/+$/, '') || '/',
    captchaSiteKey: optionalText(input.captchaSiteKey, 'captchaSiteKey', problems),
    mapTileUrl: optionalText(input.mapTileUrl, 'mapTileUrl', problems),
    mapAttribution: optionalText(input.mapAttribution, 'mapAttribution', problems) ?? DEFAULT_CONFIG.mapAttribution,
    persistence: {
      storage: oneOf(persistence.storage, 'persistence.storage', ['local', 'session', 'cookie'], 'local', problems),
      cookie: {
        domain: optionalText(cookie.domain, 'persistence.cookie.domain', problems),
        path: text(cookie.path, 'persistence.cookie.path', defaults.path, problems),
        sameSite: oneOf(cookie.sameSite, 'persistence.cookie.sameSite', ['lax', 'strict', 'none'], 'lax', problems),
        secure,
        maxAgeDays,
      },
    },
  };
  return { config, problems };
}

/** Fetches and parses `/config.json`; any failure falls back to the defaults with exactly one console warning. */
export async function loadRuntimeConfig(fetcher: typeof fetch = fetch): Promise<RuntimeConfig> {
  let body: unknown;
  try {
    const response = await fetcher(CONFIG_URL, { cache: 'no-cache', headers: { accept: 'application/json' } });
    if (!response.ok) {
      console.warn(`Spaceguard: ${CONFIG_URL} answered ${response.status}; using the default configuration.`);
      return DEFAULT_CONFIG;
    }
    body = await response.json();
  } catch (error) {
    console.warn(`Spaceguard: ${CONFIG_URL} could not be read (${String(error)}); using the default configuration.`);
    return DEFAULT_CONFIG;
  }
  const { config, problems } = parseRuntimeConfig(body);
  if (problems.length > 0) {
    console.warn(`Spaceguard: ${CONFIG_URL} is malformed (${problems.join('; ')}); using defaults for those fields.`);
  }
  return config;
}

/** Current runtime configuration: defaults until `/config.json` has been read once. */
export const $config = atom<RuntimeConfig>(DEFAULT_CONFIG);

/** True once `/config.json` has been read (or has failed and defaults apply). */
export const $configLoaded = atom<boolean>(false);

let loading: Promise<RuntimeConfig> | undefined;

/** Reads `/config.json` once per page, however many islands ask. */
export function ensureConfig(fetcher: typeof fetch = fetch): Promise<RuntimeConfig> {
  loading ??= loadRuntimeConfig(fetcher).then((config) => {
    $config.set(config);
    $configLoaded.set(true);
    return config;
  });
  return loading;
}

/** Forgets the loaded configuration; for tests. */
export function resetConfigForTests(): void {
  loading = undefined;
  $config.set(DEFAULT_CONFIG);
  $configLoaded.set(false);
}
