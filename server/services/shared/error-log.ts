/** What the error log may say about an unexpected error. */
import { DrizzleQueryError } from 'drizzle-orm';

/**
 * PostgreSQL's fields that say what failed without quoting data. Left out: `detail` (it quotes the failing row
 * or key), `where` and `internalQuery` (they may quote values), and Drizzle's query parameters.
 */
const safeFields = ['code', 'message', 'severity', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'];

/** The PostgreSQL error behind an error (Drizzle wraps it as `cause`): the first one with a SQLSTATE code. */
function databaseError(error: unknown): object | undefined {
  let e: unknown = error;
  for (let depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = 'code' in e ? e.code : undefined;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return e;
    e = 'cause' in e ? e.cause : undefined;
  }
  return undefined;
}

/**
 * Log fields of an unexpected error: its kind and message, the stack frames, and for a database error
 * PostgreSQL's code, message and the object it names (`database`). A failed Drizzle query's message carries the
 * query's parameters (addresses, hashes, whole rows), so it is logged as "Failed query" and its stack without the
 * message line.
 */
export function errorLogFields(error: Error): Record<string, unknown> {
  const stack = (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
  const fields: Record<string, unknown> = {
    error: error instanceof DrizzleQueryError ? 'Failed query' : String(error),
    stack,
  };
  const db = databaseError(error);
  if (db) {
    // Read by name: an Error's own `message` is not enumerable.
    const found = db as Record<string, unknown>;
    const named = safeFields.flatMap((key) =>
      typeof found[key] === 'string' ? [[key, found[key].slice(0, 500)]] : [],
    );
    fields.database = Object.fromEntries(named);
  }
  if (error instanceof DrizzleQueryError && !db && error.cause) fields.cause = String(error.cause).slice(0, 500);
  return fields;
}
