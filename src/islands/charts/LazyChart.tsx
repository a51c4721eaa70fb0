/**
 * The chart wrapper loaded on demand: Highchart, Highstock and Highmap render this, so a page's first JavaScript
 * carries none of the chart code (Chart.tsx, highcharts-react, Highcharts itself). While it loads, the frame keeps
 * the chart's name and height, so nothing below it moves.
 */
import { lazy, Suspense } from 'react';
import type { GenericChartProps } from './Chart.tsx';

// Chart.css (the frame's size and colours) comes with Chart.tsx: Astro puts the CSS of a page's lazy modules in the
// page, so the frame is styled before the chart's code loads, and this module can share a chunk (astro.config.mjs).

const Chart = lazy(() => import('./Chart.tsx').then((module) => ({ default: module.Chart })));

/** A chart of any constructor, drawn once its code has loaded. */
export function LazyChart(props: GenericChartProps) {
  const height = props.height ?? 400;
  const frame = (
    <figure
      className={['sg-chart', props.className].filter(Boolean).join(' ')}
      aria-label={props.label}
      aria-busy="true"
      style={{ minHeight: typeof height === 'number' ? `${height}px` : height }}
    />
  );
  return (
    <Suspense fallback={frame}>
      <Chart {...props} />
    </Suspense>
  );
}
