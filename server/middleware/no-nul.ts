import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';

const rule = 'May not contain the NUL character (U+0000).';

/** Where in a decoded JSON value a string holds U+0000, as a dotted path ('' for the value itself). */
function nulPath(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], path ? `${path}.${i}` : String(i));
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const here = path ? `${path}.${key}` : key;
      if (key.includes('\0')) return here;
      const found = nulPath(item, here);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000: a NUL in a query parameter or a JSON body would fail the statement.
 * Such input is refused with 400 naming the field, before any handler runs. (Ingest and the connector's events
 * replace NULs instead: their records come from logs of what attackers sent.)
 */
export const noNul = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.path.startsWith('/api/ingest/') || c.req.path === '/api/connector/events') return next();
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (values.some((value) => value.includes('\0'))) {
      throw new ApiError(400, 'validation', `${name}: ${rule}`, { fields: { [name]: rule } });
    }
  }
  if ((c.req.header('content-type') ?? '').includes('json')) {
    const text = await c.req.text();
    if (text.includes('\\u0000') || text.includes('\0')) {
      let decoded: unknown;
      try {
        decoded = JSON.parse(text);
      } catch {
        return next(); // the validator answers malformed JSON
      }
      const field = nulPath(decoded, '');
      if (field !== null) {
        throw new ApiError(400, 'validation', `${field || 'body'}: ${rule}`, { fields: { [field || 'body']: rule } });
      }
    }
  }
  return next();
});
