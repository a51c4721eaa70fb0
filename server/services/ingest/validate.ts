/**
 * The checks every ingest line passes before anything is stored: one record PostgreSQL cannot
 * hold (a lone surrogate, a time out of its range, nesting that overflows a stack) must be refused with its reason,
 * never fail the whole batch.
 */
import { timeRange } from '../../../contract/common.ts';
import type { NormalisedEvent } from '../../../contract/events.ts';
import { findInJson, nestsDeeperThan } from '../shared/json-walk.ts';

/** Most nesting and bytes one record may have. */
export const recordLimits = { depth: 64, bytes: 1024 * 1024 } as const;

/** The longest field path a reason quotes (keys are the sender's and may be long). */
const pathShown = 120;

/** A field path as a reason may quote it: well-formed (so the reason itself is storable) and short. */
function shown(path: string): string {
  const safe = path.toWellFormed();
  return safe.length > pathShown ? `${safe.slice(0, pathShown)}…` : safe;
}

/** `\ud800`: the first lone surrogate of a string that is not well-formed, as its JSON escape. */
function loneSurrogate(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    return `\\u${unit.toString(16)}`;
  }
  return '';
}

/** Why a string cannot be stored as text or jsonb (a lone surrogate, a NUL), or null when it can. */
function textReason(text: string): string | null {
  if (!text.isWellFormed()) {
    return `use well-formed Unicode; this text holds a lone surrogate (${loneSurrogate(text)}).`;
  }
  return text.includes('\0') ? 'may not contain the NUL character (U+0000).' : null;
}

/** Why a string cannot be stored, prefixed with its field (`where`; the record itself when empty), or null. */
export function textProblem(text: string, where: string): string | null {
  const reason = textReason(text);
  return reason === null ? null : `${shown(where) || 'record'}: ${reason}`;
}

/** Why a time cannot be stored (outside 1970–2200, or not a time), or null when it can. */
export function timeProblem(time: Date | string, where: string): string | null {
  const at = typeof time === 'string' ? Date.parse(time) : time.getTime();
  if (Number.isFinite(at) && at >= timeRange.earliest && at < timeRange.latest) return null;
  return `${where}: ${timeRange.rule}`;
}

/**
 * Why a decoded record cannot be stored whole, or null: nested deeper than 64 levels, a key or string that is not
 * well-formed Unicode or holds NUL (named by its dotted path), or larger than 1 MB. Walks with its own stack, so no
 * record overflows the call stack; the size is measured only once the depth is known to be safe.
 */
export function recordProblem(value: unknown, text: string | null): string | null {
  if (text !== null && cleanText(text)) {
    // Every string the text decodes to is well formed and free of NUL: only the nesting is left to check.
    if (nestsDeeperThan(value, recordLimits.depth)) return tooDeep();
    return sizeProblem(text);
  }
  const found = findInJson(value, recordLimits.depth, textReason);
  if (found === 'too deep') return tooDeep();
  if (found !== null) return `${shown(found.path) || 'record'}${found.key ? ' (the key)' : ''}: ${found.reason}`;
  return sizeProblem(text ?? JSON.stringify(value) ?? '');
}

const tooDeep = () => `The record is nested deeper than ${recordLimits.depth} levels.`;

/** A \\u escape that decodes to NUL or to half of a surrogate pair (a well-formed pair is checked the long way). */
const riskyEscape = /\\u(?:0000|d[89a-f])/i;

/**
 * Whether a record's JSON text can only decode to storable strings: itself well formed, with no NUL and no escape
 * of NUL or of a surrogate. Then the walk over every key and string (`findInJson`, a quarter of ingest's parsing
 * time) is skipped; any other text takes it, which names the offending field.
 */
function cleanText(text: string): boolean {
  return text.isWellFormed() && !text.includes('\0') && !riskyEscape.test(text);
}

/** Why a record's text is too large to store (over 1 MB in UTF-8), or null. */
export function sizeProblem(text: string): string | null {
  const bytes = Buffer.byteLength(text);
  if (bytes <= recordLimits.bytes) return null;
  return `The record is ${(bytes / 1024 / 1024).toFixed(1)} MB; one record may be at most 1 MB.`;
}

const eventTexts = ['dedupKey', 'ip', 'country', 'method', 'host', 'path', 'message', 'userAgent'] as const;

/**
 * Why a normalised event cannot be stored, or null: a time outside 1970–2200, or a field that is not storable text.
 * The parsers name the time by its own field; this is the last guard before the insert, whatever the parser.
 */
export function eventProblem(event: NormalisedEvent): string | null {
  const time = timeProblem(event.time, 'time');
  if (time !== null) return time;
  for (const field of eventTexts) {
    const value = event[field];
    const problem = value === null ? null : textProblem(value, field);
    if (problem !== null) return problem;
  }
  for (const [i, tag] of event.tags.entries()) {
    const problem = textProblem(tag, `tags.${i}`);
    if (problem !== null) return problem;
  }
  return null;
}
