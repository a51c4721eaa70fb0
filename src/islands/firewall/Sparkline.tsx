import type { Options } from 'highcharts';
import type { FirewallSummary } from '../../../contract/firewalls.ts';
import { Highchart } from '../charts/Highchart.tsx';

interface Props {
  readonly name: string;
  readonly hourly: FirewallSummary['hourly'];
}

/** Events and blocked requests per hour over the last 24 h, as a small chart without axes. */
export function Sparkline({ name, hourly }: Props) {
  const options: Options = {
    chart: { type: 'area', margin: [2, 0, 2, 0], backgroundColor: 'transparent', spacing: [0, 0, 0, 0] },
    legend: { enabled: false },
    credits: { enabled: false },
    exporting: { enabled: false },
    xAxis: { type: 'datetime', visible: false },
    yAxis: { visible: false, min: 0 },
    tooltip: { outside: true, xDateFormat: '%b %e, %H:00' },
    plotOptions: { series: { marker: { enabled: false }, lineWidth: 1.5, animation: false } },
    series: [
      { type: 'area', name: 'Events', data: hourly.map((bucket) => [Date.parse(bucket.hour), bucket.events]) },
      { type: 'area', name: 'Blocked', data: hourly.map((bucket) => [Date.parse(bucket.hour), bucket.blocked]) },
    ],
  };
  return (
    <Highchart
      options={options}
      label={`Events and blocked requests per hour for ${name}, last 24 hours`}
      height={36}
      className="sg-sparkline"
    />
  );
}
