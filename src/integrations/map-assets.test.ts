import { buildMapAssets, topologyToGeoJSON, WORLD_GEOJSON_PATH, WORLD_TOPOJSON_PATH } from './map-assets.ts';

interface Countries {
  objects: { countries: { geometries: Array<{ properties: Record<string, string> }> } };
}

const assets = buildMapAssets();
const topology = JSON.parse(assets.get(WORLD_TOPOJSON_PATH) ?? '{}') as Countries;
const byName = new Map(topology.objects.countries.geometries.map((g) => [g.properties.name, g.properties['iso-a2']]));

test.each([
  { name: 'United States of America', expected: 'US' },
  { name: 'Indonesia', expected: 'ID' },
  { name: 'France', expected: 'FR' },
  { name: 'Russia', expected: 'RU' },
  { name: 'United Kingdom', expected: 'GB' },
  { name: 'Dem. Rep. Congo', expected: 'CD' },
  { name: 'Kosovo', expected: 'XK' },
])('$name is joined on iso-a2 $expected', ({ name, expected }) => {
  expect(byName.get(name)).toBe(expected);
});

test('every country with an ISO code has a distinct one', () => {
  const codes = [...byName.values()].filter(Boolean);
  expect(codes.length).toBeGreaterThanOrEqual(175);
  expect(new Set(codes).size).toBe(codes.length);
});

test('the GeoJSON has one feature per country with real longitudes and latitudes', () => {
  const geo = JSON.parse(assets.get(WORLD_GEOJSON_PATH) ?? '{}') as ReturnType<typeof topologyToGeoJSON>;
  expect(geo.features).toHaveLength(topology.objects.countries.geometries.length);
  const points = geo.features.flatMap((feature) =>
    feature.geometry.type === 'Polygon' ? feature.geometry.coordinates.flat() : feature.geometry.coordinates.flat(2),
  );
  expect(points.every(([lon, lat]) => lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90)).toBe(true);
  const france = geo.features.find((feature) => feature.properties['iso-a2'] === 'FR');
  expect(france?.geometry.type).toBe('MultiPolygon');
});

test('rings decode from delta-encoded arcs, reversed arcs included, closing on their first point', () => {
  const geo = topologyToGeoJSON(
    {
      type: 'Topology',
      transform: { scale: [1, 1], translate: [0, 0] },
      arcs: [
        [
          [0, 0],
          [1, 0],
          [0, 1],
        ],
        [
          [0, 0],
          [0, 1],
          [1, 0],
        ],
      ],
      objects: { shapes: { type: 'GeometryCollection', geometries: [{ type: 'Polygon', arcs: [[0, ~1]] }] } },
    },
    'shapes',
  );
  expect(geo.features[0]?.geometry.coordinates).toEqual([
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ],
  ]);
});
