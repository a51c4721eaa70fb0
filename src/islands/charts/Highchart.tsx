/** Line, spline, area, column, bar, pie and scatter charts (the seed's `highchart`). */
import { Chart, type ChartProps } from './Chart.tsx';

/** A plain Highcharts chart. */
export function Highchart(props: ChartProps) {
  return <Chart {...props} constructorType="chart" />;
}

export default Highchart;
