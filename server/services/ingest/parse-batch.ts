import type { SourceKind } from '../../../contract/sources.ts';
import { parseGeneric } from './parse-generic.ts';
import { isModSecurityRecord, parseModSecurity } from './parse-modsecurity.ts';
import { parseSyslog } from './parse-syslog.ts';
import { rememberRawText } from './raw-text.ts';
import { type LineResult, lineError } from './types.ts';
import { eventProblem, recordProblem, sizeProblem } from './validate.ts';

/** One entry of a batch with its 1-based line (NDJSON line, or position in a JSON array). */
export type NumberedResult = { line: number } & LineResult;

/** A body that cannot be split into lines at all (a JSON array that does not parse). */
export class BatchFormatError extends Error {}

/** Parses one decoded JSON value for a source kind; a `json` source also recognises ModSecurity records. */
export function parseValue(kind: SourceKind, value: unknown, now: Date): LineResult {
  if (kind === 'syslog') {
    if (typeof value !== 'string') return { ok: false, message: 'Expected a syslog line as a JSON string.' };
    return parseSyslog(value, now);
  }
  if (kind === 'modsecurity') return parseModSecurity(value);
  return isModSecurityRecord(value) ? parseModSecurity(value) : parseGeneric(value);
}

/** A JSON `\u0000` escape that is one (preceded by an even number of backslashes, so not itself escaped text). */
const escapedNul = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * PostgreSQL text and jsonb cannot hold U+0000, and anyone can put one in a request a WAF logs: NUL characters,
 * literal or as JSON escapes, become U+FFFD (the replacement character) so one such record never fails a batch.
 */
export function withoutNul(body: string): string {
  if (!body.includes('\0') && !body.includes('u0000')) return body;
  return body.replaceAll('\0', '\uFFFD').replace(escapedNul, '$1\\ufffd');
}

/** Splits a body into its entries: a JSON array (numbered by position), or one entry per non-blank line. */
export function splitBatch(raw: string): { line: number; text: string | null; value?: unknown }[] {
  const body = withoutNul(raw);
  const trimmed = body.trimStart();
  if (trimmed.startsWith('[')) {
    let array: unknown;
    try {
      array = JSON.parse(trimmed);
    } catch (error) {
      throw new BatchFormatError(`The body starts with "[" but is not a JSON array: ${(error as Error).message}`);
    }
    if (!Array.isArray(array)) throw new BatchFormatError('The body is not a JSON array.');
    return array.map((value, i) => ({ line: i + 1, text: null, value }));
  }
  const out: { line: number; text: string | null }[] = [];
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const text = (lines[i] ?? '').replace(/\r$/, '');
    if (text.trim() === '') continue;
    out.push({ line: i + 1, text });
  }
  return out;
}

/**
 * Reads one entry fully before anything is stored: its size, nesting and text (`recordProblem`), then the parser,
 * then the event it made (`eventProblem`). A line that still throws is refused with the reason, never the batch.
 */
function readEntry(kind: SourceKind, text: string | null, value: unknown, now: Date): LineResult {
  try {
    let decoded: unknown = value;
    if (text !== null) {
      const tooLarge = sizeProblem(text);
      if (tooLarge !== null) return lineError(tooLarge);
      if (kind === 'syslog') decoded = text;
      else {
        try {
          decoded = JSON.parse(text);
          rememberRawText(decoded, text);
        } catch (error) {
          return lineError(`Not valid JSON: ${(error as Error).message}`);
        }
      }
    }
    const problem = recordProblem(decoded, text);
    if (problem !== null) return lineError(problem);
    const result = parseValue(kind, decoded, now);
    if (!result.ok) return result;
    const refused = eventProblem(result.event);
    return refused === null ? result : lineError(refused);
  } catch (error) {
    return lineError(`This line could not be read: ${(error as Error).message}`);
  }
}

/** Parses every entry of a batch for a source kind, keeping line numbers; every reason is storable text. */
export function parseEntries(
  kind: SourceKind,
  entries: { line: number; text: string | null; value?: unknown }[],
  now: Date,
): NumberedResult[] {
  return entries.map(({ line, text, value }) => {
    const result = readEntry(kind, text, value, now);
    return result.ok ? { line, ...result } : { line, ok: false, message: result.message.toWellFormed() };
  });
}

/** Parses a whole body for a source kind. */
export function parseBatch(kind: SourceKind, body: string, now: Date): NumberedResult[] {
  return parseEntries(kind, splitBatch(body), now);
}
