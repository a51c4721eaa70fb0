import { useStore } from '@nanostores/react';
import type { SeriesOptionsType } from 'highcharts';
import { vulnSeverities, vulnSeverityLabels } from '../../../../contract/constants/vulns.ts';
import type { FindingTrend as Trend } from '../../../../contract/findings.ts';
import { $theme } from '../../../stores/theme.ts';
import { Highstock } from '../../charts/Highstock.tsx';
import { severityColour } from '../../shared/palette.ts';

/** The rated severities (critical to low): `none` and `unknown` are not drawn. */
const SHOWN = vulnSeverities.filter((s) => s !== 'none' && s !== 'unknown');

/** Open findings by severity after each assessment, as a stock chart (navigator and range selector). */
export function FindingTrend({ trend }: { readonly trend: Trend }) {
  const theme = useStore($theme);
  if (trend.points.length === 0)
    return <p className="muted">The trend starts with the first assessment: run one from the assets.</p>;
  const series: SeriesOptionsType[] = SHOWN.map((severity) => ({
    type: 'line',
    name: vulnSeverityLabels[severity],
    color: severityColour(theme, severity),
    step: 'left',
    // Each point is an assessment's count: never averaged with its neighbours.
    dataGrouping: { enabled: false },
    data: trend.points.map((p) => [Date.parse(p.at), p.open[severity]]),
  }));
  return (
    <Highstock
      label="Open findings by severity over time"
      height={240}
      options={{
        series,
        legend: { enabled: true },
        yAxis: { min: 0, allowDecimals: false, title: { text: 'Open findings' } },
      }}
    />
  );
}
