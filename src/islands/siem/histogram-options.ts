/**
 * The event log's histogram: one stacked column per bucket, blocked at the bottom, then logged, then allowed, with a
 * legend, a few readable y labels, and a tooltip naming the bucket's time range with whole numbers.
 */
import type { Options, Point } from 'highcharts';
import type { Histogram } from '../../../contract/event-search.ts';
import type { Theme } from '../../lib/color-mode.ts';
import { ACTION_COLORS } from './action-colors.ts';

const when = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const timeOnly = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** "Nov 24, 09:00 – 09:30" (the end's date only when it differs). */
export function bucketRange(start: number, intervalSeconds: number): string {
  const end = start + intervalSeconds * 1000;
  const sameDay = new Date(start).toDateString() === new Date(end).toDateString();
  return `${when.format(start)} – ${sameDay ? timeOnly.format(end) : when.format(end)}`;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Highstock options for one histogram answer; `onZoom` gets the range the navigator was dragged to. */
export function histogramOptions(
  histogram: Histogram | undefined,
  theme: Theme,
  onZoom: (from: number, to: number) => void,
): Options {
  const buckets = histogram?.buckets ?? [];
  const interval = histogram?.intervalSeconds ?? 3600;
  const colors = ACTION_COLORS[theme];
  const series = (name: string, color: string, count: (b: Histogram['buckets'][number]) => number) => ({
    type: 'column' as const,
    name,
    color,
    data: buckets.map((b) => [Date.parse(b.time), count(b)]),
  });
  return {
    chart: { spacing: [8, 8, 4, 4] },
    // The page has its own exports (NDJSON, CSV): no chart menu taking the plot's top.
    exporting: { buttons: { contextButton: { enabled: false } } },
    rangeSelector: { enabled: false },
    navigator: { enabled: true, height: 20, margin: 6 },
    scrollbar: { enabled: false },
    // The legend is the page's, beside the count, so the chart keeps its height for the columns.
    legend: { enabled: false },
    plotOptions: {
      column: { stacking: 'normal', borderWidth: 0, groupPadding: 0.04, pointPadding: 0.02 },
      // Every bucket is drawn as it is: no grouping into wider columns with averaged counts.
      series: { dataGrouping: { enabled: false } },
    },
    xAxis: {
      events: {
        afterSetExtremes(event) {
          // Only the user's zoom (navigator) narrows the range, not a redraw with new data.
          if (!event.trigger || event.min === undefined || event.max === undefined) return;
          onZoom(event.min, event.max);
        },
      },
    },
    yAxis: {
      opposite: false,
      // The first series (blocked) at the bottom of each stack.
      reversedStacks: false,
      min: 0,
      allowDecimals: false,
      tickAmount: 3,
      title: { text: '' },
      labels: { align: 'right', x: -6, y: 4 },
    },
    tooltip: {
      split: false,
      shared: true,
      formatter(this: Point) {
        const points = this.points ?? [this];
        const total = points.reduce((sum, point) => sum + Math.round(point.y ?? 0), 0);
        const lines = points
          .filter((point) => (point.y ?? 0) > 0)
          .map(
            (point) =>
              `<span style="color:${point.color}">●</span> ${escapeHtml(point.series.name)}: <b>${Math.round(point.y ?? 0).toLocaleString()}</b>`,
          );
        return [
          `<span>${escapeHtml(bucketRange(Number(this.x), interval))}</span>`,
          `${total.toLocaleString()} event${total === 1 ? '' : 's'}`,
          ...lines,
        ].join('<br/>');
      },
    },
    series: [
      series('Blocked', colors.blocked, (b) => b.blocked),
      series('Logged', colors.logged, (b) => b.logged),
      series('Allowed', colors.allowed, (b) => Math.max(0, b.total - b.blocked - b.logged)),
    ],
  };
}
