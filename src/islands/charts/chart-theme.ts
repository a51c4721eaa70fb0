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
  /** The colour axis of maps: the lowest and highest value's colour. */
  readonly scale: readonly [string, string];
}

/**
 * The page's own colour tokens (src/styles/global.css: --surface, --text, --muted, --border, --surface-2), so a chart
 * sits on its card with the same background and text; chart-theme.test.ts reads the stylesheet and holds them equal.
 * Text reaches WCAG AA (4.5:1) on the background; series and the map's scale reach 3:1 as graphics.
 */
export const PALETTES: Readonly<Record<Theme, Palette>> = {
  light: {
    background: '#ffffff',
    text: '#16192b',
    muted: '#4b5168',
    grid: '#d5d9e6',
    line: '#8a90a6',
    hover: '#eef0f6',
    series: ['#2563eb', '#dc2626', '#047857', '#b45309', '#7c3aed', '#be185d', '#0e7490', '#4b5563'],
    scale: ['#6f8fd8', '#1e3a8a'],
  },
  dark: {
    background: '#161a2b',
    text: '#e8eaf6',
    muted: '#a9afc8',
    grid: '#2e3450',
    line: '#6b7290',
    hover: '#1f2438',
    series: ['#60a5fa', '#f87171', '#34d399', '#fbbf24', '#a78bfa', '#f472b6', '#22d3ee', '#d1d5db'],
    scale: ['#4a6cb8', '#bfdbfe'],
  },
};

/** The background a chart is drawn on in each mode; the CSS of the chart frame uses the same. */
export function chartBackground(theme: Theme): string {
  return PALETTES[theme].background;
}

/**
 * The colour, axis, legend, tooltip and navigator options of one colour mode; a map's colour axis only for a map, since
 * a colour axis on any other chart draws a colour-scale legend under it and paints its points on that scale (a line
 * chart with a 0-400 legend, a pie in shades of one blue).
 */
export function themeOptions(theme: Theme, map = false): Options {
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
    ...(map
      ? {
          colorAxis: {
            minColor: p.scale[0],
            maxColor: p.scale[1],
            labels: { style: { color: p.muted } },
            gridLineColor: p.background,
          },
        }
      : {}),
    mapNavigation: {
      buttonOptions: { theme: { fill: p.hover, stroke: p.line, style: { color: p.text } } },
    },
  };
}
