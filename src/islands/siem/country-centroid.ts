/** The middle of a country's outline (from the map data the site serves), to place it on the Leaflet map. */

interface Feature {
  readonly properties?: Record<string, unknown>;
  readonly geometry?: { readonly type: string; readonly coordinates: unknown };
}

function points(coordinates: unknown, out: number[][]): number[][] {
  if (Array.isArray(coordinates) && typeof coordinates[0] === 'number') out.push(coordinates as number[]);
  else if (Array.isArray(coordinates)) for (const child of coordinates) points(child, out);
  return out;
}

/** [lat, lng] of the centre of the largest extent of a country's points, or null when unknown. */
export function centroidOf(features: readonly Feature[], code: string): [number, number] | null {
  const feature = features.find((candidate) => candidate.properties?.['iso-a2'] === code.toUpperCase());
  if (!feature?.geometry) return null;
  const all = points(feature.geometry.coordinates, []);
  if (all.length === 0) return null;
  const lngs = all.map((point) => point[0] ?? 0);
  const lats = all.map((point) => point[1] ?? 0);
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
