/**
 * The event log's histogram, loaded as the chart's code is (astro.config.mjs names its chunk as chart code): its
 * options (stacked columns, axes, tooltip, the navigator's zoom) are only needed once it draws.
 */
import { useMemo } from 'react';
import type { Histogram } from '../../../contract/event-search.ts';
import type { Theme } from '../../lib/color-mode.ts';
import { Highstock } from '../charts/Highstock.tsx';
import { histogramOptions } from './histogram-options.ts';

export interface EventHistogramProps {
  readonly histogram: Histogram;
  readonly theme: Theme;
  /** The range the navigator was dragged to. */
  readonly onZoom: (from: number, to: number) => void;
  readonly label: string;
  readonly height: number;
  readonly className: string;
}

/** Counts over time by action, stacked, with the navigator to zoom into a range. */
export function EventHistogram({ histogram, theme, onZoom, label, height, className }: EventHistogramProps) {
  const options = useMemo(() => histogramOptions(histogram, theme, onZoom), [histogram, theme, onZoom]);
  return <Highstock options={options} label={label} height={height} className={className} />;
}
