import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Highcharts from 'highcharts/esm/highcharts.js';
import { cleanStores } from 'nanostores';
import { useState } from 'react';
import { $colorMode, $theme } from '../../stores/theme.ts';
import { NO_MAP_DATA_MESSAGE } from './Chart.tsx';
import { ChartTypeSelect } from './ChartTypeSelect.tsx';
import type { ChartType } from './chart-types.ts';
import { Highchart } from './Highchart.tsx';
import { Highmap } from './Highmap.tsx';
import { Highstock } from './Highstock.tsx';
import { loadHighcharts } from './load-modules.ts';

const series: Highcharts.SeriesOptionsType[] = [{ type: 'line', name: 'Requests', data: [3, 5, 2, 8] }];

function chartsIn(element: HTMLElement): Highcharts.Chart[] {
  return Highcharts.charts.filter((chart): chart is Highcharts.Chart => !!chart && element.contains(chart.container));
}

function Switchable() {
  const [type, setType] = useState<ChartType>('spline');
  return (
    <>
      <ChartTypeSelect value={type} onChange={setType} />
      <Highchart label="Requests over time" type={type} options={{ title: { text: 'Requests' }, series }} />
    </>
  );
}

const squares = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      id: 'AA',
      properties: { name: 'Alpha', 'iso-a2': 'AA' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [10, 0],
            [10, 10],
            [0, 10],
            [0, 0],
          ],
        ],
      },
    },
    {
      type: 'Feature',
      id: 'BB',
      properties: { name: 'Beta', 'iso-a2': 'BB' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [20, 0],
            [30, 0],
            [30, 10],
            [20, 10],
            [20, 0],
          ],
        ],
      },
    },
  ],
};

afterEach(() => {
  cleanStores($theme);
  $colorMode.set('system');
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Highchart', () => {
  test('switching the chart type draws a new chart of the chosen type in place of the old one', async () => {
    const user = userEvent.setup();
    const { container } = render(<Switchable />);
    await waitFor(() => expect(container.querySelector('.highcharts-spline-series')).not.toBeNull());
    const [chart] = chartsIn(container);

    await user.selectOptions(screen.getByLabelText('Chart type'), 'Column');

    await waitFor(() => expect(container.querySelector('.highcharts-column-series')).not.toBeNull());
    expect(container.querySelector('.highcharts-spline-series')).toBeNull();
    const [redrawn] = chartsIn(container);
    expect(chartsIn(container)).toHaveLength(1);
    expect(redrawn).not.toBe(chart);
    expect(redrawn?.series[0]?.type).toBe('column');
  });

  // The page's --surface of each mode (src/styles/global.css): a chart sits on its card's colour.
  test.each([
    { mode: 'light', expected: '#ffffff' },
    { mode: 'dark', expected: '#161a2b' },
  ] as const)('a mounted chart restyles to $mode ($expected) without being recreated', async ({ mode, expected }) => {
    $colorMode.set(mode === 'light' ? 'dark' : 'light');
    const { container } = render(<Highchart label="Blocked requests" options={{ series }} />);
    await waitFor(() => expect(container.querySelector('.highcharts-background')).not.toBeNull());
    const [chart] = chartsIn(container);
    const svg = container.querySelector('svg');

    $colorMode.set(mode);

    await waitFor(() => expect(container.querySelector('.highcharts-background')).toHaveAttribute('fill', expected));
    expect(chartsIn(container)).toEqual([chart]);
    expect(container.querySelector('svg')).toBe(svg);
  });

  test.each(['light', 'dark'] as const)(
    'in %s mode, a line chart and a pie beside a map get no colour scale: no 0-to-max legend, each slice its own colour',
    async (mode) => {
      // A map on the same page (the overview's, a dashboard's) brings the colour axis module to every chart.
      await loadHighcharts(['map']);
      $colorMode.set(mode);
      const pie: Highcharts.SeriesOptionsType[] = [
        {
          type: 'pie',
          name: 'Actions',
          data: [
            { name: 'blocked', y: 400, color: '#b42318' },
            { name: 'allowed', y: 100, color: '#047857' },
          ],
        },
      ];
      const { container } = render(
        <div>
          <Highchart label="Requests" options={{ series }} />
          <Highchart label="Actions" options={{ series: pie }} />
        </div>,
      );
      await waitFor(() => expect(container.querySelectorAll('.highcharts-container')).toHaveLength(2));
      expect(container.querySelector('.highcharts-coloraxis')).toBeNull();
      const charts = chartsIn(container);
      // The colour axes a chart has (in Highcharts' colour axis module, not in its type declarations).
      const axes = (chart: Highcharts.Chart) => (chart as unknown as { colorAxis?: unknown[] }).colorAxis?.length ?? 0;
      expect(charts.map(axes)).toEqual([0, 0]);
      const slices = charts.find((chart) => chart.series[0]?.type === 'pie')?.series[0]?.points ?? [];
      expect(slices.map((point) => point.color)).toEqual(['#b42318', '#047857']);
    },
  );

  test('the accessibility module describes the chart for screen readers', async () => {
    const { container } = render(<Highchart label="Attacks" options={{ title: { text: 'Attacks' }, series }} />);
    await waitFor(() =>
      expect(container.querySelector('[id^="highcharts-screen-reader-region-before"]')).toHaveTextContent('Attacks'),
    );
    expect(screen.getByRole('figure', { name: 'Attacks' })).toBeInTheDocument();
  });

  test('a chart without a title shows none (no "Chart title" placeholder); a given title is drawn', async () => {
    const { container } = render(
      <div>
        <Highchart label="Untitled" options={{ series }} />
        <Highchart label="Titled" options={{ title: { text: 'Blocked requests' }, series }} />
      </div>,
    );
    await waitFor(() => expect(container.querySelectorAll('.highcharts-container')).toHaveLength(2));
    const titles = [...container.querySelectorAll('svg .highcharts-title')].map((t) => t.textContent).filter(Boolean);
    expect(titles).toEqual(['Blocked requests']);
    expect(container.textContent).not.toContain('Chart title');
  });
});

describe('Highstock', () => {
  test('several stock charts asking at once all get the navigator and range selector', async () => {
    const { container } = render(
      <div>
        {[1, 2, 3].map((n) => (
          <Highstock
            key={n}
            label={`Events ${n}`}
            options={{
              series: [
                {
                  type: 'line',
                  data: [
                    [0, 1],
                    [86_400_000, 4],
                  ],
                },
              ],
            }}
          />
        ))}
      </div>,
    );
    await waitFor(() => expect(container.querySelectorAll('.highcharts-navigator')).toHaveLength(3));
    expect(container.querySelectorAll('.highcharts-range-selector-group')).toHaveLength(3);
  });
});

describe('Highmap', () => {
  test('map data given as an address is fetched with GET once and drawn', async () => {
    const fetcher = vi.fn(async () => new Response(JSON.stringify(squares), { status: 200 }));
    vi.stubGlobal('fetch', fetcher);
    const options: Highcharts.Options = {
      series: [{ type: 'map', name: 'Events', joinBy: 'iso-a2', keys: ['iso-a2', 'value'], data: [['AA', 4]] }],
    };
    const { container } = render(
      <>
        <Highmap label="Events by country" mapData="/maps/test-once.json" options={options} />
        <Highmap label="Blocked by country" mapData="/maps/test-once.json" options={options} />
      </>,
    );

    await waitFor(() =>
      expect(container.querySelectorAll('.highcharts-map-series path.highcharts-point')).toHaveLength(4),
    );
    expect(container.querySelectorAll('path.highcharts-name-alpha:not(.highcharts-null-point)')).toHaveLength(2);
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher).toHaveBeenCalledWith('/maps/test-once.json', expect.objectContaining({ method: 'GET' }));
  });

  test('map data given as an object is drawn without any request', async () => {
    const fetcher = vi.fn();
    vi.stubGlobal('fetch', fetcher);
    const { container } = render(
      <Highmap label="Countries" mapData={squares} options={{ series: [{ type: 'map', data: [] }] }} />,
    );
    await waitFor(() =>
      expect(container.querySelectorAll('.highcharts-map-series path.highcharts-point')).toHaveLength(2),
    );
    expect(fetcher).not.toHaveBeenCalled();
  });

  test('without map data it logs that none was provided and draws nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fetcher = vi.fn();
    vi.stubGlobal('fetch', fetcher);
    const { container } = render(<Highmap label="Countries" options={{ series: [{ type: 'map', data: [] }] }} />);

    await loadHighcharts(['map']);
    await waitFor(() => expect(warn).toHaveBeenCalledWith(NO_MAP_DATA_MESSAGE));
    expect(container.querySelector('svg')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
    expect(fetcher).not.toHaveBeenCalled();
  });

  test('a map address that fails says so instead of drawing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('missing', { status: 404 })),
    );
    const { container } = render(<Highmap label="Countries" mapData="/maps/missing.json" options={{}} />);
    expect(await screen.findByRole('status')).toHaveTextContent('The map could not be loaded.');
    expect(container.querySelector('svg')).toBeNull();
  });
});
