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
