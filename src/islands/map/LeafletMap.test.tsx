import { act, render, screen, waitFor } from '@testing-library/react';
import { cleanStores } from 'nanostores';
import { $config, DEFAULT_CONFIG, resetConfigForTests } from '../../lib/config.ts';
import { $colorMode, $theme } from '../../stores/theme.ts';
import { LeafletMap, type MapMarker } from './LeafletMap.tsx';

// jsdom has no SVG geometry; Leaflet only picks its SVG renderer when this exists.
beforeAll(() => {
  Object.defineProperty(SVGSVGElement.prototype, 'createSVGRect', { value: () => ({}), configurable: true });
});

const outlines = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { name: 'Alpha' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [10, 0],
            [10, 10],
            [0, 0],
          ],
        ],
      },
    },
  ],
};

const markers: MapMarker[] = [
  { id: 'ID', lat: -6.2, lng: 106.8, count: 120, label: 'Jakarta, ID' },
  { id: 'DE', lat: 52.5, lng: 13.4, count: 30, label: 'Berlin, DE' },
];

let fetcher: ReturnType<typeof vi.fn<typeof fetch>>;

function stubFetch(config: Record<string, unknown>): void {
  fetcher = vi.fn<typeof fetch>(async (input) => {
    const url = String(input);
    if (url === '/config.json') return new Response(JSON.stringify(config));
    if (url.startsWith('/maps/')) return new Response(JSON.stringify(outlines));
    return new Response('not found', { status: 404 });
  });
  vi.stubGlobal('fetch', fetcher);
}

function outlinePaths(container: HTMLElement): Element[] {
  return [...container.querySelectorAll('.leaflet-overlay-pane path')].filter(
    (path) => !path.classList.contains('leaflet-interactive'),
  );
}

beforeEach(() => resetConfigForTests());

afterEach(() => {
  cleanStores($theme, $config);
  $colorMode.set('system');
  vi.unstubAllGlobals();
});

describe('LeafletMap', () => {
  test('without a tile template it draws the country outlines served by the site, fetched with GET', async () => {
    stubFetch({});
    const { container } = render(<LeafletMap label="Client locations" outlinesUrl="/maps/outlines-a.json" />);
    await waitFor(() => expect(outlinePaths(container)).toHaveLength(1));
    expect(container.querySelector('img.leaflet-tile')).toBeNull();
    expect(fetcher).toHaveBeenCalledWith('/maps/outlines-a.json', expect.objectContaining({ method: 'GET' }));
    expect(screen.getByRole('region', { name: 'Client locations' })).toBeInTheDocument();
  });

  test('with a tile template it loads tiles from it, and falls back to outlines when a tile fails', async () => {
    stubFetch({ mapTileUrl: '/tiles/{z}/{x}/{y}.png', mapAttribution: 'Tiles: local' });
    const { container } = render(<LeafletMap label="Client locations" outlinesUrl="/maps/outlines-b.json" />);
    await waitFor(() => expect(container.querySelector('img.leaflet-tile')).not.toBeNull());
    expect(container.querySelector('img.leaflet-tile')?.getAttribute('src')).toMatch(/^\/tiles\/2\/\d+\/\d+\.png$/);
    expect(container.querySelector('.leaflet-control-attribution')).toHaveTextContent('Tiles: local');
    expect(outlinePaths(container)).toHaveLength(0);

    act(() => {
      container.querySelector('img.leaflet-tile')?.dispatchEvent(new Event('error'));
    });

    await waitFor(() => expect(outlinePaths(container)).toHaveLength(1));
    expect(container.querySelector('img.leaflet-tile')).toBeNull();
  });

  test('markers are reachable by keyboard, and open a popup with the count', async () => {
    stubFetch({});
    $config.set(DEFAULT_CONFIG);
    render(<LeafletMap label="Client locations" markers={markers} outlinesUrl="/maps/outlines-c.json" />);
    const jakarta = await screen.findByRole('button', { name: 'Jakarta, ID: 120 events' });
    const berlin = screen.getByRole('button', { name: 'Berlin, DE: 30 events' });
    expect(jakarta).toHaveAttribute('tabindex', '0');

    expect(berlin).toHaveAttribute('tabindex', '0');

    act(() => {
      jakarta.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
    expect(document.querySelector('.leaflet-popup-content')).toHaveTextContent('Jakarta, ID120 events');
  });

  test('the map is created once: new markers and a theme change update it in place', async () => {
    stubFetch({});
    $colorMode.set('light');
    const { container, rerender } = render(
      <LeafletMap label="Client locations" markers={markers.slice(0, 1)} outlinesUrl="/maps/outlines-d.json" />,
    );
    await waitFor(() => expect(outlinePaths(container)).toHaveLength(1));
    const mapElement = container.querySelector('.leaflet-container');
    const pane = container.querySelector('.leaflet-map-pane');
    expect(outlinePaths(container)[0]).toHaveAttribute('fill', '#e5e7eb');

    rerender(<LeafletMap label="Client locations" markers={markers} outlinesUrl="/maps/outlines-d.json" />);
    await screen.findByRole('button', { name: 'Berlin, DE: 30 events' });
    act(() => $colorMode.set('dark'));

    await waitFor(() => expect(outlinePaths(container)[0]).toHaveAttribute('fill', '#1f2937'));
    expect(screen.getByRole('button', { name: 'Jakarta, ID: 120 events' })).toHaveAttribute('fill', '#f87171');
    expect(container.querySelector('.leaflet-container')).toBe(mapElement);
    expect(container.querySelector('.leaflet-map-pane')).toBe(pane);
    expect(fetcher.mock.calls.filter(([url]) => String(url) === '/maps/outlines-d.json')).toHaveLength(1);
  });

  test('a missing outlines file is reported on the page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubFetch({});
    fetcher.mockImplementation(async (input) =>
      String(input) === '/config.json' ? new Response('{}') : new Response('gone', { status: 404 }),
    );
    render(<LeafletMap label="Client locations" outlinesUrl="/maps/outlines-e.json" />);
    expect(await screen.findByRole('status')).toHaveTextContent('The map background could not be loaded.');
  });
});
