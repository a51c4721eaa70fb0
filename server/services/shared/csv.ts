/** CSV for exports: RFC 4180 cells, always quoted, with spreadsheet formulas neutralised. */

/**
 * One cell: null and undefined are empty, strings as they are, anything else as JSON. Every cell is quoted
 * (inner quotes doubled, so commas and line breaks stay inside it), and a cell that a spreadsheet would run
 * as a formula (starting with = + - @, a tab or a carriage return) gets a leading apostrophe.
 */
export function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** One record: its cells joined by commas, without the line break. */
export function csvRow(values: readonly unknown[]): string {
  return values.map(csvCell).join(',');
}
