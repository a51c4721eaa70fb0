import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ACTION_COLOURS, SEVERITY_COLOURS } from '../shared/palette.ts';
import { PALETTES, themeOptions } from './chart-theme.ts';

/** The colour tokens of one mode block of the page's stylesheet. */
function tokens(block: 'light' | 'dark'): Record<string, string> {
  const css = readFileSync(join(import.meta.dirname, '../../styles/global.css'), 'utf8');
  const selector = block === 'light' ? ':root {' : ':root[data-theme="dark"] {';
  const start = css.indexOf(selector);
  const body = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries([...body.matchAll(/--([a-z0-9-]+):\s*(#[0-9a-f]{6})/gi)].map(([, k, v]) => [k, v]));
}

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [luminance(a), luminance(b)].sort((m, n) => n - m) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

describe.each(['light', 'dark'] as const)('the %s chart theme', (mode) => {
  const p = PALETTES[mode];
  const page = tokens(mode);

  test('draws on the page’s card colour with the page’s text colours', () => {
    expect({ background: p.background, text: p.text, muted: p.muted, grid: p.grid, hover: p.hover }).toEqual({
      background: page.surface,
      text: page.text,
      muted: page.muted,
      grid: page.border,
      hover: page['surface-2'],
    });
    expect(themeOptions(mode).chart?.backgroundColor).toBe(page.surface);
  });

  test('text reaches 4.5:1, series and the map scale 3:1 on the background', () => {
    expect(contrast(p.text, p.background)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(p.muted, p.background)).toBeGreaterThanOrEqual(4.5);
    expect(Math.min(...p.series.map((colour) => contrast(colour, p.background)))).toBeGreaterThanOrEqual(3);
    expect(Math.min(...p.scale.map((colour) => contrast(colour, p.background)))).toBeGreaterThanOrEqual(3);
    // The legend's labels are the muted text colour.
    const axis = themeOptions(mode, true).colorAxis;
    expect(Array.isArray(axis) ? undefined : axis?.labels?.style?.color).toBe(p.muted);
  });

  test('the severity and action colours of shared/palette.ts reach 3:1 on the background too', () => {
    const colours = [...Object.values(SEVERITY_COLOURS[mode]), ...Object.values(ACTION_COLOURS[mode])];
    expect(Math.min(...colours.map((colour) => contrast(colour, p.background)))).toBeGreaterThanOrEqual(3);
  });

  test('only a map gets the colour axis', () => {
    expect(themeOptions(mode).colorAxis).toBeUndefined();
    expect(themeOptions(mode, true).colorAxis).toBeDefined();
  });
});
