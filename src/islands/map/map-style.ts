/** Colours and sizes of the Leaflet map in each colour mode; vector shapes reach 3:1 against their background. */
import type { Theme } from '../../lib/color-mode.ts';

/** Path options of the country outlines drawn when there are no tiles. */
export function outlineStyle(theme: Theme): { color: string; weight: number; fillColor: string; fillOpacity: number } {
  return theme === 'dark'
    ? { color: '#6b7280', weight: 1, fillColor: '#1f2937', fillOpacity: 1 }
    : { color: '#9ca3af', weight: 1, fillColor: '#e5e7eb', fillOpacity: 1 };
}

/** Path options of a count marker. */
export function markerStyle(theme: Theme): { color: string; weight: number; fillColor: string; fillOpacity: number } {
  return theme === 'dark'
    ? { color: '#fecaca', weight: 1.5, fillColor: '#f87171', fillOpacity: 0.7 }
    : { color: '#7f1d1d', weight: 1.5, fillColor: '#dc2626', fillOpacity: 0.6 };
}

/** Marker radius in pixels: area grows with the count, from 4 px to 20 px at the largest count shown. */
export function markerRadius(count: number, max: number): number {
  if (!(count > 0) || !(max > 0)) return 4;
  return Math.round((4 + 16 * Math.sqrt(Math.min(count, max) / max)) * 10) / 10;
}
