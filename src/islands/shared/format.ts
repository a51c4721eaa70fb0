/** Dates as the user reads them, in their own locale. */

/** Date and time, e.g. "21 Nov 2026, 14:03:12". */
export function dateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** Date only, e.g. "21 Nov 2026". */
export function dateOnly(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** A calendar day in UTC, e.g. "24 Nov 2026": billing periods and their renewals are whole UTC days. */
export function dayUtc(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** A count with its noun, e.g. "1 file", "1,204 files" (the plural adds an s). */
export function countOf(n: number, word: string): string {
  return `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;
}
