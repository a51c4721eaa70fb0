import { render, waitFor } from '@testing-library/react';
import Highcharts from 'highcharts/esm/highcharts.js';
import { cleanStores } from 'nanostores';
import type { Widget, WidgetResult } from '../../../../contract/dashboards.ts';
import { $colorMode, $theme } from '../../../stores/theme.ts';
import { ACTION_COLOURS } from '../../shared/palette.ts';
import { WidgetView } from './WidgetView.tsx';

afterEach(() => {
  cleanStores($theme);
  $colorMode.set('system');
});

const actions: Widget = {
  id: 'actions',
  title: 'Actions',
  type: 'pie',
  gridPos: { x: 0, y: 0, w: 6, h: 8 },
  query: { metric: 'count', groupBy: { kind: 'field', field: 'action' }, filter: '' },
};

const result: WidgetResult = {
  from: '2026-11-20T00:00:00.000Z',
  to: '2026-11-21T00:00:00.000Z',
  intervalSeconds: null,
  series: [
    {
      name: 'Events',
      data: [
        ['allowed', 300],
        ['blocked', 40],
      ],
    },
  ],
  fromRollups: false,
};

test.each(['light', 'dark'] as const)(
  'in %s mode the Actions pie keeps blocked red and allowed green',
  async (mode) => {
    $colorMode.set(mode);
    const { container } = render(<WidgetView widget={actions} result={result} height={240} />);
    const chart = () => Highcharts.charts.find((c) => c && container.contains(c.container));
    await waitFor(() => expect(chart()?.series[0]?.points).toHaveLength(2));
    expect(chart()?.series[0]?.points.map((point) => [point.name, point.color])).toEqual([
      ['allowed', ACTION_COLOURS[mode].allowed],
      ['blocked', ACTION_COLOURS[mode].blocked],
    ]);
  },
);
