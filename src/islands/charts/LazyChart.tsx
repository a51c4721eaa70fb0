/**
 * The chart wrapper loaded on demand: Highchart, Highstock and Highmap render this, so a page's first JavaScript
 * carries none of the chart code (Chart.tsx, highcharts-react, Highcharts itself). While it loads, the frame keeps
 * the chart's name and height, so nothing below it moves.
 */
import { lazy, Suspense } from 'react';
import type { GenericChartProps } from './Chart.tsx';
import './Chart.css';

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
