/** Line, spline, area, column, bar, pie and scatter charts (the seed's `highchart`). */
import type { ChartProps } from './Chart.tsx';
import { LazyChart } from './LazyChart.tsx';

/** A plain Highcharts chart. */
export function Highchart(props: ChartProps) {
  return <LazyChart {...props} constructorType="chart" />;
}

export default Highchart;
