import { createRoute, OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { stream } from 'hono/streaming';
import type { ZodError, z } from 'zod';
import type { Role } from '../contract/common.ts';
import { ApiErrorBody } from '../contract/errors.ts';
import type { AppEnv } from './context.ts';
import { ApiError, notFound } from './errors.ts';
import { requireSpaceRole, requireUser } from './middleware/access.ts';
import type { Download } from './services/shared/download.ts';

/** Who may call a route: anyone, any signed-in user, or a member with at least this role. */
export type Access = 'anonymous' | 'user' | Role;

/** Turns zod issues into `{ field: message }`, with readable words for the common cases. */
export function fieldsOf(error: ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[[...issue.path, key].join('.')] ??= 'Unknown field.';
      continue;
    }
    const name = issue.path.map(String).join('.') || 'body';
    const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
    fields[name] ??= missing ? 'This field is required.' : issue.message;
  }
  return fields;
}

/** A router whose validation failures become the product's error shape (bad params read as unknown ids). */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (result.success) return;
      if (result.target === 'param') throw notFound();
      throw new ApiError(400, 'validation', 'Some fields need attention.', { fields: fieldsOf(result.error) });
    },
  });
}

/** A JSON response entry of a route. */
export function json<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } } as const;
}

/** A required JSON request body. */
export function body<T extends z.ZodType>(schema: T) {
  return { required: true, content: { 'application/json': { schema } } } as const;
}

const errorResponses = {
  400: json(ApiErrorBody, 'Invalid input; `fields` names each field'),
  401: json(ApiErrorBody, 'Not signed in'),
  402: json(
    ApiErrorBody,
    'Past a plan limit: `plan_limit` names `limit`, `plan` and `upgradeTo` (the plan that lifts it)',
  ),
  403: json(ApiErrorBody, 'Role too weak, or foreign Origin'),
  404: json(ApiErrorBody, 'Unknown id, or a space the caller does not belong to'),
  409: json(ApiErrorBody, 'Conflict with the current state'),
  413: json(ApiErrorBody, 'Body too large'),
  422: json(ApiErrorBody, 'Refused by a rule (expired token, invalid state)'),
  429: json(ApiErrorBody, 'Too many attempts; see Retry-After'),
} as const;

/**
 * Declares a route with its least access: the OpenAPI document carries it as `x-min-role`, the middleware enforces it.
 * `hideBelow`: weaker roles get 404 as non-members do, not 403 (`x-hidden-below-role` in the document).
 */
export function route<const R extends Omit<RouteConfig, 'middleware'>>(
  access: Access,
  config: R,
  options: { hideBelow?: boolean } = {},
) {
  const hide = options.hideBelow === true;
  const middleware = access === 'anonymous' ? [] : access === 'user' ? [requireUser] : [requireSpaceRole(access, hide)];
  return createRoute({
    ...config,
    responses: { ...errorResponses, ...config.responses },
    middleware,
    ...(access === 'anonymous' ? {} : { security: [{ session: [] }, { bearer: [] }] }),
    'x-min-role': access,
    ...(hide ? { 'x-hidden-below-role': true } : {}),
  });
}

/**
 * Streams an export's file: its headers, then its chunks as the service reads them, stopping when the client
 * goes away. A failure after the headers left can only be logged: the client sees a short file.
 */
export function streamDownload(c: Context<AppEnv>, download: Download) {
  for (const [name, value] of Object.entries(download.headers)) c.header(name, value);
  return stream(
    c,
    async (out) => {
      for await (const chunk of download.chunks) {
        if (out.aborted) break;
        await out.write(chunk);
      }
    },
    async (error) => {
      c.var.deps.log({ level: 'error', msg: 'export failed', requestId: c.var.requestId, error: String(error) });
    },
  );
}
