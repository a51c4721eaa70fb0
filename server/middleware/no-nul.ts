import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { findInJson } from '../services/shared/json-walk.ts';

const nulRule = 'May not contain the NUL character (U+0000).';
const surrogateRule = 'Use well-formed Unicode text (this holds a lone surrogate).';

/** Deepest nesting a checked JSON body may have: no request of the API needs more, and the walk stays bounded. */
export const bodyDepthLimit = 64;
const depthRule = `May not be nested deeper than ${bodyDepthLimit} levels.`;

/** The rule a string breaks for PostgreSQL text (a NUL, a lone surrogate), or null. */
function textRule(text: string): string | null {
  if (text.includes('\0')) return nulRule;
  return text.isWellFormed() ? null : surrogateRule;
}

/** 400 naming the field (its path made well-formed, so the answer is clean text) and the rule. */
function refused(path: string, rule: string): ApiError {
  const field = path.toWellFormed() || 'body';
  return new ApiError(400, 'validation', `${field}: ${rule}`, { fields: { [field]: rule } });
}

/** Body text that may decode to a NUL or a lone surrogate: a literal NUL, or a `\u0000` or `\uD800`-`\uDFFF` escape. */
const suspectText = /\0|\\u0000|\\u[dD][89a-fA-F]/;

/**
 * PostgreSQL text cannot hold U+0000 nor a lone surrogate (half of a UTF-16 pair, which `\ud800` in JSON decodes
 * to): either in a query parameter or anywhere in a JSON body would fail the statement (500). Such input is refused
 * with 400 naming the field, before any handler runs, for every route at once. (Ingest and the connector's events
 * check their records line by line instead: they come from logs of what attackers sent.)
 */
export const noNul = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.path.startsWith('/api/ingest/') || c.req.path === '/api/connector/events') return next();
  for (const [name, values] of Object.entries(c.req.queries())) {
    for (const value of values) {
      const rule = textRule(value);
      if (rule !== null) throw refused(name, rule);
    }
  }
  if ((c.req.header('content-type') ?? '').includes('json')) {
    const text = await c.req.text();
    if (suspectText.test(text)) {
      let decoded: unknown;
      try {
        decoded = JSON.parse(text);
      } catch {
        return next(); // the validator answers malformed JSON
      }
      const found = findInJson(decoded, bodyDepthLimit, textRule);
      if (found === 'too deep') throw refused('', depthRule);
      if (found !== null) throw refused(found.path, found.reason);
    }
  }
  return next();
});
