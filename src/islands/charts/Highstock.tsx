/** Time series with navigator and range selector (the seed's `highstock`); loads the stock module on demand. */
import { Chart, type ChartProps } from './Chart.tsx';

/** A Highcharts Stock chart. */
export function Highstock(props: ChartProps) {
  return <Chart {...props} constructorType="stockChart" />;
}

export default Highstock;
