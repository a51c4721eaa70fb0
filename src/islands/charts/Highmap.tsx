/** Map charts (the seed's `highmap`); loads the map module on demand and the map data from an object or an address. */
import type { ChartProps } from './Chart.tsx';
import { LazyChart } from './LazyChart.tsx';
import type { MapGeometry } from './map-data.ts';

/** Props of a map chart. */
export interface HighmapProps extends ChartProps {
  /** TopoJSON or GeoJSON, or the address to GET it from (the site serves `/maps/world-110m.json`). */
  readonly mapData?: MapGeometry | string | undefined;
}

/** A Highcharts Maps chart. Without map data it logs a console message and draws nothing. */
export function Highmap(props: HighmapProps) {
  return <LazyChart {...props} constructorType="mapChart" />;
}

export default Highmap;
