/** How the summary strip says a number changed against the previous period: in words, with an arrow beside them. */

/** The direction of a change, for its arrow and its colour. */
export type Direction = 'up' | 'down' | 'same';

/** A change as the strip shows it: words that stand alone (the arrow is decoration) and the direction. */
export interface Change {
  readonly text: string;
  readonly direction: Direction;
}

/** A range key (`24h`, `7d`) in words: `24 h`, `7 days`. */
export function periodWords(range: string): string {
  const match = /^(\d+)([hd])$/.exec(range);
  if (!match) return range;
  const [, count, unit] = match;
  if (unit === 'h') return `${count} h`;
  return count === '1' ? '1 day' : `${count} days`;
}

/** A count against the previous period: `up 12% vs previous 24 h`, `new: none in previous 24 h`, `no change …`. */
export function countChange(current: number, previous: number, period: string): Change {
  const versus = `vs previous ${period}`;
  if (current === previous) return { text: `no change ${versus}`, direction: 'same' };
  if (previous === 0) return { text: `new: none in previous ${period}`, direction: 'up' };
  const percent = (Math.abs(current - previous) / previous) * 100;
  const amount = percent < 1 ? 'less than 1%' : `${Math.round(percent).toLocaleString('en')}%`;
  const direction = current > previous ? 'up' : 'down';
  return { text: `${direction} ${amount} ${versus}`, direction };
}

/** A share (0 to 1, null with nothing to share) against the previous period, in percentage points. */
export function rateChange(current: number | null, previous: number | null, period: string): Change {
  const versus = `vs previous ${period}`;
  if (current === null) return { text: `no requests in the last ${period}`, direction: 'same' };
  if (previous === null) return { text: `new: no requests in previous ${period}`, direction: 'same' };
  const points = Math.round((current - previous) * 1000) / 10;
  if (points === 0) return { text: `no change ${versus}`, direction: 'same' };
  const direction = points > 0 ? 'up' : 'down';
  const amount = `${Math.abs(points).toLocaleString('en')} point${Math.abs(points) === 1 ? '' : 's'}`;
  return { text: `${direction} ${amount} ${versus}`, direction };
}

/** A share as a percentage with one decimal: `12.5%`, or `–` with nothing to share. */
export function percentText(rate: number | null): string {
  return rate === null ? '–' : `${(Math.round(rate * 1000) / 10).toLocaleString('en')}%`;
}
