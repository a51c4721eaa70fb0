/** Reads map data given as an address: one GET per address per page, answered as parsed JSON. */
import type { GeoJSON, TopoJSON } from 'highcharts';

/** What a map chart draws from: TopoJSON or GeoJSON. */
export type MapGeometry = GeoJSON | TopoJSON;

const loads = new Map<string, Promise<MapGeometry>>();

function isMapGeometry(value: unknown): value is MapGeometry {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  return type === 'Topology' || type === 'FeatureCollection';
}

/** Fetches map data once per address; a failed fetch is forgotten so a later chart can try again. */
export function fetchMapData(url: string, fetcher: typeof fetch = fetch): Promise<MapGeometry> {
  let load = loads.get(url);
  if (!load) {
    load = fetcher(url, { method: 'GET', headers: { accept: 'application/json' } })
      .then(async (response) => {
        if (!response.ok) throw new Error(`${url} answered ${response.status}`);
        const body: unknown = await response.json();
        if (!isMapGeometry(body)) throw new Error(`${url} is neither TopoJSON nor GeoJSON`);
        return body;
      })
      .catch((error: unknown) => {
        loads.delete(url);
        throw error;
      });
    loads.set(url, load);
  }
  return load;
}
