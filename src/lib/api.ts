/**
 * The one way islands call the API: a client typed by the server's routes (`hc<AppType>`), so a renamed path or
 * field breaks the build, not the page. Every non-2xx answer is thrown as a typed ApiError.
 */
import { type ClientResponse, hc } from 'hono/client';
import type { SuccessStatusCode } from 'hono/utils/http-status';
import type { LimitName } from '../../contract/constants/limits.ts';
import type { Plan } from '../../contract/constants/plans.ts';
import type { ApiErrorBody } from '../../contract/errors.ts';
import { parseLimitName } from '../../contract/limits.ts';
import { parsePlan } from '../../contract/plans.ts';
import type { AppType } from '../../server/app.ts';
import { $config, ensureConfig } from './config.ts';

/** What a 402 `plan_limit` names besides its message: the limit, the space's plan and the plan that lifts it. */
export interface PlanLimitOf {
  readonly limit: LimitName;
  readonly plan: Plan;
  readonly upgradeTo: Plan | null;
}

/**
 * An API failure as the user should read it: status, machine code, message and per-field messages; past a plan
 * limit (402 `plan_limit`), `planLimit` names the limit, the plan and the plan that lifts it.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly retryAfter: number | null;
  readonly planLimit: PlanLimitOf | null;

  constructor(
    status: number,
    code: string,
    message: string,
    fields: Record<string, string> = {},
    retryAfter: number | null = null,
    planLimit: PlanLimitOf | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.retryAfter = retryAfter;
    this.planLimit = planLimit;
  }
}

// The client is built once against this stand-in origin; each call swaps it for the configured `apiBaseUrl`.
const STAND_IN = 'https://api.spaceguard.invalid/api';

/** Absolute URL of an API path (such as `/spaces`) under the configured base. */
export function apiUrl(path: string): string {
  return new URL($config.get().apiBaseUrl + path, location.origin).toString();
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

/** The limit, plan and upgrade a `plan_limit` body names; null for any other error. */
function planLimitOf(error: ApiErrorBody['error']): PlanLimitOf | null {
  const limit = parseLimitName(error.limit);
  const plan = parsePlan(error.plan);
  if (error.code !== 'plan_limit' || !limit || !plan) return null;
  return { limit, plan, upgradeTo: parsePlan(error.upgradeTo) };
}

/** The ApiError a non-2xx answer stands for. */
async function errorOf(response: Response): Promise<ApiError> {
  const retryAfter = Number(response.headers.get('retry-after')) || null;
  let body: unknown = null;
  try {
    body = JSON.parse(await response.text());
  } catch {
    body = null;
  }
  if (isErrorBody(body)) {
    return new ApiError(
      response.status,
      body.error.code,
      body.error.message,
      body.error.fields ?? {},
      retryAfter,
      planLimitOf(body.error),
    );
  }
  return new ApiError(
    response.status,
    'http_error',
    `The server answered ${response.status}. Try again in a moment.`,
    {},
    retryAfter,
  );
}

/** fetch under the configured base, with cookies; network failures and non-2xx answers become ApiError. */
async function apiFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  await ensureConfig();
  const requested = input instanceof Request ? input.url : String(input);
  const url = apiUrl(requested.startsWith(STAND_IN) ? requested.slice(STAND_IN.length) : requested);
  const headers = new Headers(init.headers);
  if (!headers.has('accept')) headers.set('accept', 'application/json');
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers, credentials: 'include' });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'Could not reach the server. Check your connection and try again.');
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}

/** The typed API: `client.spaces[':spaceId'].members.$get({ param: { spaceId } })`. Resolves only on 2xx. */
export const client = hc<AppType>(STAND_IN.slice(0, -'/api'.length), { fetch: apiFetch }).api;

/** The address of a client URL (`client.….$url(…)`) under the configured base: for links and downloads. */
export function hrefOf(url: URL): string {
  const text = url.toString();
  return apiUrl(text.startsWith(STAND_IN) ? text.slice(STAND_IN.length) : url.pathname + url.search);
}

/** The body of a call's 2xx answer, as the route declares it. */
export type Ok<R> =
  R extends ClientResponse<infer T, infer S, infer F>
    ? S extends SuccessStatusCode
      ? F extends 'json'
        ? T
        : never
      : never
    : never;

/** Awaits a client call and reads its JSON body, typed by the route's 2xx answer; failures throw ApiError. */
export async function call<R extends ClientResponse<unknown, number, string>>(request: Promise<R>): Promise<Ok<R>> {
  const response = await request;
  const text = await response.text();
  return (text === '' ? null : JSON.parse(text)) as Ok<R>;
}

/** The message to show for any failure. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
