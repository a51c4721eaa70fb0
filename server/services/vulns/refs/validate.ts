/** One OSV record read from an import: parsed, checked against the schema, or refused with the field and rule. */
import { OsvRecord } from '../../../../contract/vuln-refs.ts';
import { findInJson } from '../../shared/json-walk.ts';

export type Checked = { ok: true; record: OsvRecord } | { ok: false; reason: string };

/** What PostgreSQL text cannot hold: a NUL, a lone surrogate. */
function textRule(text: string): string | null {
  if (text.includes('\0')) return 'may not contain the NUL character (U+0000).';
  return text.isWellFormed() ? null : 'holds a lone surrogate; use well-formed Unicode.';
}

/** The first problems of a failed parse, each as `path: rule` (at most three). */
function reasonOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const parts = issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String).join('.') || 'record';
    return `${path}: ${issue.message}`;
  });
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return `${parts.join('; ')}${more}`;
}

/** Checks a decoded value as one OSV record. */
export function checkRecord(value: unknown): Checked {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'record: An OSV record is a JSON object.' };
  }
  const found = findInJson(value, 64, textRule);
  if (found === 'too deep') return { ok: false, reason: 'record: May not be nested deeper than 64 levels.' };
  if (found) return { ok: false, reason: `${found.path || 'record'}: ${found.reason}` };
  const parsed = OsvRecord.safeParse(value);
  if (!parsed.success) return { ok: false, reason: reasonOf(parsed.error.issues) };
  return { ok: true, record: parsed.data };
}

/** Parses JSON text and checks it as one record. */
export function checkRecordText(text: string): Checked {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `Not JSON: ${(error as Error).message}` };
  }
  return checkRecord(value);
}
