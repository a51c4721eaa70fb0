/** The middle of a country's outline (from the map data the site serves), to place it on the Leaflet map. */

interface Feature {
  readonly properties?: Record<string, unknown>;
  readonly geometry?: { readonly type: string; readonly coordinates: unknown };
}

type Ring = readonly (readonly number[])[];

/** Twice the area of a ring (shoelace), unsigned: enough to compare the parts of a country. */
function ringArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1 = 0, y1 = 0] = ring[i] ?? [];
    const [x2 = 0, y2 = 0] = ring[(i + 1) % ring.length] ?? [];
    sum += x1 * y2 - x2 * y1;
  }
  return Math.abs(sum);
}

/** The outer rings of a Polygon or MultiPolygon. */
function outerRings(geometry: { readonly type: string; readonly coordinates: unknown }): Ring[] {
  const coordinates = geometry.coordinates as Ring[] | Ring[][];
  if (geometry.type === 'Polygon') return coordinates.length > 0 ? [(coordinates as Ring[])[0] as Ring] : [];
  if (geometry.type === 'MultiPolygon') return (coordinates as Ring[][]).map((polygon) => polygon[0] ?? []);
  return [];
}

/**
 * [lat, lng] of the middle of a country's largest part (so France is in Europe, not between it and French Guiana,
 * and the United States is not pulled north by Alaska), or null when unknown.
 */
export function centroidOf(features: readonly Feature[], code: string): [number, number] | null {
  const feature = features.find((candidate) => candidate.properties?.['iso-a2'] === code.toUpperCase());
  if (!feature?.geometry) return null;
  const rings = outerRings(feature.geometry).filter((ring) => ring.length > 0);
  if (rings.length === 0) return null;
  const largest = rings.reduce((best, ring) => (ringArea(ring) > ringArea(best) ? ring : best));
  const lngs = largest.map((point) => point[0] ?? 0);
  const lats = largest.map((point) => point[1] ?? 0);
  return [(Math.min(...lats) + Math.max(...lats)) / 2, (Math.min(...lngs) + Math.max(...lngs)) / 2];
}

let outlines: Promise<readonly Feature[]> | undefined;

/** Loads the country outlines once per page. */
export function loadOutlines(url = '/maps/world-110m.geo.json'): Promise<readonly Feature[]> {
  outlines ??= fetch(url)
    .then((response) => (response.ok ? response.json() : { features: [] }))
    .then((body: { features?: Feature[] }) => body.features ?? []);
  return outlines;
}
