/** The one way islands call the API: JSON in and out, cookies included, every non-2xx thrown as a typed ApiError. */
import type { ApiErrorBody } from '../../contract/errors.ts';
import { $config, ensureConfig } from '../stores/config.ts';

/** An API failure as the user should read it: status, machine code, message and per-field messages. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly retryAfter: number | null;

  constructor(
    status: number,
    code: string,
    message: string,
    fields: Record<string, string> = {},
    retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.retryAfter = retryAfter;
  }
}

type Query = Record<string, string | number | undefined | null>;

export interface ApiInit {
  readonly method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  readonly body?: unknown;
  readonly query?: Query;
  readonly signal?: AbortSignal;
}

/** Absolute URL of an API path under the configured base. */
export function apiUrl(path: string, query: Query = {}): string {
  const base = $config.get().apiBaseUrl;
  const url = new URL(base + path, location.origin);
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value));
  }
  return url.toString();
}

function isErrorBody(body: unknown): body is ApiErrorBody {
  return (
    typeof body === 'object' &&
    body !== null &&
    'error' in body &&
    typeof body.error === 'object' &&
    body.error !== null
  );
}

/** Calls the API; resolves with the parsed JSON body, or throws ApiError. */
export async function api<T>(path: string, init: ApiInit = {}): Promise<T> {
  await ensureConfig();
  let response: Response;
  try {
    response = await fetch(apiUrl(path, init.query), {
      method: init.method ?? 'GET',
      credentials: 'include',
      headers:
        init.body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      ...(init.signal ? { signal: init.signal } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'Could not reach the server. Check your connection and try again.');
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('retry-after')) || null;
    if (isErrorBody(body)) {
      throw new ApiError(response.status, body.error.code, body.error.message, body.error.fields ?? {}, retryAfter);
    }
    throw new ApiError(
      response.status,
      'http_error',
      `The server answered ${response.status}. Try again in a moment.`,
      {},
      retryAfter,
    );
  }
  return body as T;
}

/** The message to show for any failure. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
