/** Time series with navigator and range selector (the seed's `highstock`); loads the stock module on demand. */
import type { ChartProps } from './Chart.tsx';
import { LazyChart } from './LazyChart.tsx';

/** A Highcharts Stock chart. */
export function Highstock(props: ChartProps) {
  return <LazyChart {...props} constructorType="stockChart" />;
}

export default Highstock;
