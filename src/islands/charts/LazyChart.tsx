/**
 * The chart wrapper loaded on demand: Highchart, Highstock and Highmap render this, so a page's first JavaScript
 * carries none of the chart code (Chart.tsx, highcharts-react, Highcharts itself). While it loads, the frame keeps
 * the chart's name and height, so nothing below it moves.
 */
import { lazy, Suspense } from 'react';
import type { ChartProps, GenericChartProps } from './Chart.tsx';

// Chart.css (the frame's size and colours) comes with Chart.tsx: Astro puts the CSS of a page's lazy modules in the
// page, so the frame is styled before the chart's code loads, and this module can share a chunk (astro.config.mjs).

const Chart = lazy(() => import('./Chart.tsx').then((module) => ({ default: module.Chart })));

/** A chart's frame while its code loads: its name and height, so nothing below it moves. */
export function ChartFrame({ label, height = 400, className }: Pick<ChartProps, 'label' | 'height' | 'className'>) {
  return (
    <figure
      className={['sg-chart', className].filter(Boolean).join(' ')}
      aria-label={label}
      aria-busy="true"
      style={{ minHeight: typeof height === 'number' ? `${height}px` : height }}
    />
  );
}

/** A chart of any constructor, drawn once its code has loaded. */
export function LazyChart(props: GenericChartProps) {
  return (
    <Suspense fallback={<ChartFrame label={props.label} height={props.height} className={props.className} />}>
      <Chart {...props} />
    </Suspense>
  );
}
