/** The last time bucket of a histogram that ends now is still filling: it is drawn dotted, not read as a drop. */
import type { SeriesZonesOptionsObject } from 'highcharts';

/**
 * Zones along x that draw the segment into the last bucket dotted when that bucket runs past `to` (the window ends
 * inside it, so it holds only part of its time); none when every bucket is whole.
 */
export function partialBucketZones(
  starts: readonly number[],
  widthMs: number,
  to: number,
): { zoneAxis: 'x'; zones: SeriesZonesOptionsObject[] } | undefined {
  const last = starts.at(-1);
  const before = starts.at(-2);
  if (last === undefined || before === undefined || widthMs <= 0 || last + widthMs <= to) return undefined;
  return { zoneAxis: 'x', zones: [{ value: before }, { dashStyle: 'ShortDot' }] };
}
