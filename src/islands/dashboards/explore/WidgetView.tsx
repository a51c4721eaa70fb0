/** Draws one widget's result as its type says: a chart island (chart, stock, map), a single number, or a table. */
import { useStore } from '@nanostores/react';
import type { Options, SeriesOptionsType } from 'highcharts';
import { useMemo } from 'react';
import { dashboardFieldLabels } from '../../../../contract/constants/dashboards.ts';
import type { Widget, WidgetResult } from '../../../../contract/dashboards.ts';
import type { Theme } from '../../../lib/color-mode.ts';
import { $theme } from '../../../stores/theme.ts';
import { sharedPageAccessibility } from '../../charts/accessible.ts';
import type { DashboardChartType } from '../../charts/chart-types.ts';
import { Highchart } from '../../charts/Highchart.tsx';
import { Highmap } from '../../charts/Highmap.tsx';
import { Highstock } from '../../charts/Highstock.tsx';
import { valueColour } from '../../shared/palette.ts';
import { TableScroll } from '../../shared/TableScroll.tsx';

interface Props {
  readonly widget: Widget;
  readonly result: WidgetResult;
  /** Pixels the chart may take. */
  readonly height: number;
  /** A time chart zoomed by the user: the dashboard's range narrows to it. */
  readonly onZoom?: ((from: number, to: number) => void) | undefined;
}

const numberFormat = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
export const formatValue = (value: number | null) => (value === null ? '–' : numberFormat.format(value));

/** What the first column of a field or time result is called. */
function keyLabel(widget: Widget): string {
  const group = widget.query.groupBy;
  if (group.kind === 'field') return dashboardFieldLabels[group.field];
  return group.kind === 'time' ? 'Time' : 'Value';
}

/** Whether a result has nothing to draw: no points, or only zeros and gaps. */
export function isEmptyResult(result: WidgetResult): boolean {
  return result.series.every((series) => series.data.every(([, y]) => y === null || y === 0));
}

/** A field's value as a point: its name and value, and the palette's colour where the value means one (an action, a severity). */
function fieldPoint(widget: Widget, theme: Theme, x: string | number | null, y: number | null) {
  const group = widget.query.groupBy;
  const color = group.kind === 'field' ? valueColour(theme, group.field, x) : undefined;
  return { name: String(x), y, ...(color ? { color } : {}) };
}

function cartesianOptions(widget: Widget, result: WidgetResult, theme: Theme, onZoom: Props['onZoom']): Options {
  const time = widget.query.groupBy.kind === 'time';
  const series = result.series.map(
    (s) =>
      ({
        type: widget.type as DashboardChartType,
        name: s.name,
        data: s.data.map(([x, y]) => (time ? [x, y] : fieldPoint(widget, theme, x, y))),
      }) as SeriesOptionsType,
  );
  return {
    accessibility: sharedPageAccessibility(widget.title),
    chart: time ? { zooming: { type: 'x' } } : {},
    legend: { enabled: false },
    xAxis: time
      ? {
          type: 'datetime',
          events: {
            afterSetExtremes(event) {
              // Only the user's drag-to-zoom narrows the range; "Reset zoom" and redraws do not.
              if (event.trigger === 'zoom' && event.min !== undefined && event.max !== undefined && onZoom)
                onZoom(Math.round(event.min), Math.round(event.max));
            },
          },
        }
      : { type: 'category' },
    yAxis: { title: { text: result.series[0]?.name ?? '' } },
    series,
  };
}

export function WidgetView({ widget, result, height, onZoom }: Props) {
  const theme = useStore($theme);
  const options = useMemo<Options | null>(() => {
    switch (widget.type) {
      case 'stat':
      case 'table':
        return null;
      case 'pie':
        return {
          accessibility: sharedPageAccessibility(widget.title),
          series: result.series.map((s) => ({
            type: 'pie',
            name: s.name,
            data: s.data.map(([x, y]) => fieldPoint(widget, theme, x, y ?? 0)),
          })),
        };
      case 'map':
        return {
          accessibility: sharedPageAccessibility(widget.title),
          colorAxis: { min: 0 },
          mapNavigation: { enabled: true, buttonOptions: { verticalAlign: 'bottom' } },
          series: result.series.map((s) => ({
            type: 'map',
            name: s.name,
            joinBy: ['iso-a2', 'code'],
            data: s.data.map(([x, y]) => ({ code: String(x), value: y })),
          })),
        } as Options;
      case 'stock':
        return {
          accessibility: sharedPageAccessibility(widget.title),
          rangeSelector: { enabled: false },
          navigator: { enabled: true },
          scrollbar: { enabled: false },
          xAxis: {
            events: {
              afterSetExtremes(event) {
                if (event.trigger === 'zoom' && event.min !== undefined && event.max !== undefined && onZoom)
                  onZoom(Math.round(event.min), Math.round(event.max));
              },
            },
          },
          series: result.series.map((s) => ({ type: 'line', name: s.name, data: s.data as [number, number][] })),
        };
      default:
        return cartesianOptions(widget, result, theme, onZoom);
    }
  }, [widget, result, theme, onZoom]);

  if (widget.type === 'stat') {
    const value = result.series[0]?.data[0]?.[1] ?? null;
    return (
      <p className="sg-widget__stat">
        <span className="sg-widget__stat-value">{formatValue(value)}</span>
        <span className="sg-widget__stat-label">{result.series[0]?.name}</span>
      </p>
    );
  }
  if (widget.type === 'table') {
    const rows = result.series[0]?.data ?? [];
    const time = widget.query.groupBy.kind === 'time';
    return (
      <TableScroll label={`${widget.title} table`} className="sg-widget__table">
        <table className="data">
          <thead>
            <tr>
              <th scope="col">{keyLabel(widget)}</th>
              <th scope="col">{result.series[0]?.name ?? 'Value'}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([x, y]) => (
              <tr key={String(x)}>
                <td>
                  {time && typeof x === 'number'
                    ? new Date(x).toISOString().slice(0, 16).replace('T', ' ')
                    : String(x ?? 'All')}
                </td>
                <td>{formatValue(y)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    );
  }
  if (!options) return null;
  // A new chart for another type or grouping: Highcharts cannot turn every series type into every other in place
  // (a cartesian series into a pie, a category axis into a time axis).
  const key = `${widget.type}:${widget.query.groupBy.kind}`;
  if (widget.type === 'map')
    return <Highmap key={key} options={options} mapData="/maps/world-110m.json" label={widget.title} height={height} />;
  if (widget.type === 'stock') return <Highstock key={key} options={options} label={widget.title} height={height} />;
  return <Highchart key={key} options={options} label={widget.title} height={height} />;
}
