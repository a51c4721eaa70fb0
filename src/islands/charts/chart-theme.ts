/** Highcharts options for each colour mode, applied with `chart.update` so a mounted chart restyles in place. */
import type { Options } from 'highcharts';
import type { Theme } from '../../lib/color-mode.ts';

interface Palette {
  readonly background: string;
  readonly text: string;
  readonly muted: string;
  readonly grid: string;
  readonly line: string;
  readonly hover: string;
  readonly series: readonly string[];
}

// Text colours reach WCAG AA (4.5:1) on their background; series colours reach 3:1 as graphics.
const PALETTES: Readonly<Record<Theme, Palette>> = {
  light: {
    background: '#ffffff',
    text: '#1f2937',
    muted: '#4b5563',
    grid: '#e5e7eb',
    line: '#9ca3af',
    hover: '#f3f4f6',
    series: ['#2563eb', '#dc2626', '#047857', '#b45309', '#7c3aed', '#be185d', '#0e7490', '#4b5563'],
  },
  dark: {
    background: '#111827',
    text: '#f3f4f6',
    muted: '#d1d5db',
    grid: '#374151',
    line: '#6b7280',
    hover: '#1f2937',
    series: ['#60a5fa', '#f87171', '#34d399', '#fbbf24', '#a78bfa', '#f472b6', '#22d3ee', '#d1d5db'],
  },
};

/** The background a chart is drawn on in each mode; the CSS of the chart frame uses the same. */
export function chartBackground(theme: Theme): string {
  return PALETTES[theme].background;
}

/** The colour, axis, legend, tooltip and navigator options of one colour mode. */
export function themeOptions(theme: Theme): Options {
  const p = PALETTES[theme];
  const axis = {
    gridLineColor: p.grid,
    lineColor: p.line,
    tickColor: p.line,
    minorGridLineColor: p.grid,
    labels: { style: { color: p.muted } },
    title: { style: { color: p.text } },
  };
  return {
    colors: [...p.series],
    chart: { backgroundColor: p.background, plotBorderColor: p.line, style: { fontFamily: 'inherit' } },
    title: { style: { color: p.text } },
    subtitle: { style: { color: p.muted } },
    caption: { style: { color: p.muted } },
    credits: { style: { color: p.muted } },
    xAxis: axis,
    yAxis: axis,
    legend: {
      itemStyle: { color: p.text },
      itemHoverStyle: { color: p.text },
      itemHiddenStyle: { color: p.line },
      title: { style: { color: p.text } },
    },
    tooltip: { backgroundColor: p.background, borderColor: p.line, style: { color: p.text } },
    plotOptions: {
      series: { dataLabels: { color: p.text, style: { textOutline: 'none' } } },
      pie: { borderColor: p.background },
      map: { borderColor: p.line, nullColor: p.grid },
    },
    navigation: {
      buttonOptions: { theme: { fill: p.background, stroke: p.line }, symbolStroke: p.text },
      menuStyle: { background: p.background, border: `1px solid ${p.line}` },
      menuItemStyle: { color: p.text },
      menuItemHoverStyle: { background: p.hover, color: p.text },
    },
    navigator: {
      maskFill: theme === 'dark' ? 'rgba(96, 165, 250, 0.2)' : 'rgba(37, 99, 235, 0.15)',
      outlineColor: p.line,
      handles: { backgroundColor: p.hover, borderColor: p.text },
      xAxis: { gridLineColor: p.grid, labels: { style: { color: p.muted } } },
    },
    scrollbar: {
      barBackgroundColor: p.hover,
      barBorderColor: p.line,
      buttonArrowColor: p.text,
      buttonBackgroundColor: p.hover,
      buttonBorderColor: p.line,
      trackBackgroundColor: p.background,
      trackBorderColor: p.line,
      rifleColor: p.text,
    },
    rangeSelector: {
      buttonTheme: {
        fill: p.hover,
        stroke: p.line,
        style: { color: p.text },
        states: {
          hover: { fill: p.grid, style: { color: p.text } },
          select: { fill: p.series[0] ?? p.text, style: { color: p.background } },
        },
      },
      inputStyle: { color: p.text, backgroundColor: p.background },
      labelStyle: { color: p.muted },
    },
    mapNavigation: {
      buttonOptions: { theme: { fill: p.hover, stroke: p.line, style: { color: p.text } } },
    },
  };
}
