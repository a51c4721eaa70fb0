/** Whole numbers typed into the firewall forms. */

/** The number typed, or 0 for an empty or unreadable field (the API then names the field and its rule). */
export function wholeNumber(text: string): number {
  const value = Number(text);
  return Number.isFinite(value) ? Math.trunc(value) : 0;
}

/** A number as a field shows it: empty for 0, so a new row starts blank. */
export function numberText(value: number): string {
  return value === 0 ? '' : String(value);
}
