/** How the benchmark sections write numbers, the machine's load and markdown tables. */
import { loadavg } from 'node:os';

/** Bytes as kilobytes with one decimal, e.g. `12.3`. */
export const kb = (bytes: number): string => (bytes / 1024).toFixed(1);

/** Milliseconds with `digits` decimals (one by default). */
export const ms = (value: number, digits = 1): string => value.toFixed(digits);

/** A count with thousands separators, e.g. `1,000,000`. */
export const count = (n: number): string => Math.round(n).toLocaleString('en');

/** The 1, 5 and 15 minute load averages, e.g. `0.52, 0.61, 0.70`: said beside timings taken on a shared machine. */
export function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
}

/** A markdown table; `right` names the columns to right-align. */
export function table(
  headers: readonly string[],
  rows: readonly (readonly (string | number)[])[],
  right: readonly number[] = [],
): string[] {
  const rule = headers.map((_, i) => (right.includes(i) ? '---:' : '---'));
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), `|${rule.join('|')}|`, ...rows.map(line)];
}
