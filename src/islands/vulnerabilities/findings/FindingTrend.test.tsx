import { render, waitFor } from '@testing-library/react';
import Highcharts from 'highcharts/esm/highcharts.js';
import { cleanStores } from 'nanostores';
import { $colorMode, $theme } from '../../../stores/theme.ts';
import { SEVERITY_COLOURS } from '../../shared/palette.ts';
import { SeverityBadge } from '../../shared/SeverityBadge.tsx';
import { FindingTrend } from './FindingTrend.tsx';

afterEach(() => {
  cleanStores($theme);
  $colorMode.set('system');
});

test.each(['light', 'dark'] as const)(
  'in %s mode the trend draws Critical in the colour of its badge',
  async (mode) => {
    $colorMode.set(mode);
    const open = { critical: 1, high: 2, medium: 0, low: 0, none: 0, unknown: 0 };
    const { container } = render(
      <div>
        <FindingTrend trend={{ points: [{ at: '2026-11-20T10:00:00.000Z', open }] }} />
        <SeverityBadge severity="critical" />
      </div>,
    );
    const chart = () => Highcharts.charts.find((c) => c && container.contains(c.container));
    await waitFor(() => expect(chart()?.series.some((series) => series.name === 'Critical')).toBe(true));
    const critical = chart()?.series.find((series) => series.name === 'Critical');
    expect(critical?.color).toBe(SEVERITY_COLOURS[mode].critical);
    const badge = container.querySelector('.sg-sev--critical') as HTMLElement;
    expect(badge.style.getPropertyValue(`--sev-${mode}`)).toBe(SEVERITY_COLOURS[mode].critical);
  },
);
