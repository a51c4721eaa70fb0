import { expect, test } from 'vitest';
import { buildMapAssets, WORLD_GEOJSON_PATH } from '../../integrations/map-assets.ts';
import { centroidOf } from './country-centroid.ts';

const features = JSON.parse(buildMapAssets().get(WORLD_GEOJSON_PATH) as string).features;

test.each([
  // Countries with far-away parts: the marker sits on the main one.
  ['FR', 46.5, 2.5],
  ['US', 38, -97],
  ['NO', 64, 13],
  ['DE', 51, 10],
  ['BR', -14, -53],
])('%s is placed on its main land', (code, lat, lng) => {
  const at = centroidOf(features, code);
  expect(at).not.toBeNull();
  const [gotLat, gotLng] = at as [number, number];
  expect(Math.abs(gotLat - lat)).toBeLessThan(5);
  expect(Math.abs(gotLng - lng)).toBeLessThan(6);
});

test('an unknown code has no place', () => {
  expect(centroidOf(features, 'ZZ')).toBeNull();
});
