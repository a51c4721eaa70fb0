/** Serves the world map from the installed `world-atlas` package at /maps/, in dev and in the build; nothing comes from the internet. */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** Address of the world TopoJSON (Highmap's `mapData`). */
export const WORLD_TOPOJSON_PATH = '/maps/world-110m.json';

/** Address of the same countries as GeoJSON (the Leaflet base layer). */
export const WORLD_GEOJSON_PATH = '/maps/world-110m.geo.json';

type Position = [number, number];

interface TopoGeometry {
  type: string;
  id?: string;
  arcs?: unknown;
  properties?: Record<string, unknown>;
}

interface Topology {
  type: 'Topology';
  transform?: { scale: Position; translate: Position };
  arcs: Position[][];
  objects: Record<string, { type: string; geometries: TopoGeometry[] }>;
  bbox?: number[];
}

interface Feature {
  type: 'Feature';
  id?: string;
  properties: Record<string, unknown>;
  geometry: { type: 'Polygon'; coordinates: Position[][] } | { type: 'MultiPolygon'; coordinates: Position[][][] };
}

// ISO 3166-1 numeric id (what world-atlas carries) to alpha-2 (what the API stores for an event's country).
const ISO_A2_BY_NUMERIC: ReadonlyMap<string, string> = new Map(
  (
    '004AF 008AL 010AQ 012DZ 024AO 031AZ 032AR 036AU 040AT 044BS 050BD 051AM 056BE 064BT 068BO 070BA ' +
    '072BW 076BR 084BZ 090SB 096BN 100BG 104MM 108BI 112BY 116KH 120CM 124CA 140CF 144LK 148TD 152CL ' +
    '156CN 158TW 170CO 178CG 180CD 188CR 191HR 192CU 196CY 203CZ 204BJ 208DK 214DO 218EC 222SV 226GQ ' +
    '231ET 232ER 233EE 238FK 242FJ 246FI 250FR 260TF 262DJ 266GA 268GE 270GM 275PS 276DE 288GH 300GR ' +
    '304GL 320GT 324GN 328GY 332HT 340HN 348HU 352IS 356IN 360ID 364IR 368IQ 372IE 376IL 380IT 384CI ' +
    '388JM 392JP 398KZ 400JO 404KE 408KP 410KR 414KW 417KG 418LA 422LB 426LS 428LV 430LR 434LY 440LT ' +
    '442LU 450MG 454MW 458MY 466ML 478MR 484MX 496MN 498MD 499ME 504MA 508MZ 512OM 516NA 524NP 528NL ' +
    '540NC 548VU 554NZ 558NI 562NE 566NG 578NO 586PK 591PA 598PG 600PY 604PE 608PH 616PL 620PT 624GW ' +
    '626TL 630PR 634QA 642RO 643RU 646RW 682SA 686SN 688RS 694SL 703SK 704VN 705SI 706SO 710ZA 716ZW ' +
    '724ES 728SS 729SD 732EH 740SR 748SZ 752SE 756CH 760SY 762TJ 764TH 768TG 780TT 784AE 788TN 792TR ' +
    '795TM 800UG 804UA 807MK 818EG 826GB 834TZ 840US 854BF 858UY 860UZ 862VE 887YE 894ZM'
  )
    .split(' ')
    .map((entry) => [entry.slice(0, 3), entry.slice(3)] as const),
);

// Shapes without an ISO numeric id in Natural Earth.
const ISO_A2_BY_NAME: ReadonlyMap<string, string> = new Map([['Kosovo', 'XK']]);

/** Adds `iso-a2` (and Highcharts' `hc-key`, lower case) to each country, so maps join on alpha-2 codes. */
export function withIsoCodes(topology: Topology): Topology {
  const countries = topology.objects.countries;
  if (!countries) return topology;
  const geometries = countries.geometries.map((geometry) => {
    const name = typeof geometry.properties?.name === 'string' ? geometry.properties.name : '';
    const code = (geometry.id && ISO_A2_BY_NUMERIC.get(geometry.id)) || ISO_A2_BY_NAME.get(name);
    return code
      ? { ...geometry, properties: { ...geometry.properties, 'iso-a2': code, 'hc-key': code.toLowerCase() } }
      : geometry;
  });
  return { ...topology, objects: { countries: { ...countries, geometries } } };
}

/** Decodes one TopoJSON object into a GeoJSON FeatureCollection (polygons and multipolygons, as world-atlas has). */
export function topologyToGeoJSON(
  topology: Topology,
  objectName: string,
): {
  type: 'FeatureCollection';
  features: Feature[];
} {
  const [sx, sy] = topology.transform?.scale ?? [1, 1];
  const [tx, ty] = topology.transform?.translate ?? [0, 0];
  // Quantized arcs are delta-encoded; absolute ones are used as they are.
  const arcs = topology.arcs.map((arc) => {
    if (!topology.transform) return arc;
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]): Position => {
      x += dx;
      y += dy;
      return [x * sx + tx, y * sy + ty];
    });
  });
  const ring = (indexes: number[]): Position[] => {
    const points: Position[] = [];
    for (const index of indexes) {
      const arc = index >= 0 ? arcs[index] : arcs[~index]?.slice().reverse();
      if (!arc) continue;
      // Consecutive arcs share their joining point.
      if (points.length > 0) points.pop();
      points.push(...arc);
    }
    return points;
  };
  const features: Feature[] = [];
  for (const geometry of topology.objects[objectName]?.geometries ?? []) {
    const base = {
      type: 'Feature' as const,
      properties: geometry.properties ?? {},
      ...(geometry.id ? { id: geometry.id } : {}),
    };
    if (geometry.type === 'Polygon') {
      features.push({ ...base, geometry: { type: 'Polygon', coordinates: (geometry.arcs as number[][]).map(ring) } });
    } else if (geometry.type === 'MultiPolygon') {
      const polygons = (geometry.arcs as number[][][]).map((polygon) => polygon.map(ring));
      features.push({ ...base, geometry: { type: 'MultiPolygon', coordinates: polygons } });
    }
  }
  return { type: 'FeatureCollection', features };
}

/** The files served under /maps/, by address, as JSON text. */
export function buildMapAssets(): Map<string, string> {
  const require = createRequire(import.meta.url);
  const source = require.resolve('world-atlas/countries-110m.json');
  const topology = withIsoCodes(JSON.parse(readFileSync(source, 'utf8')) as Topology);
  return new Map([
    [WORLD_TOPOJSON_PATH, JSON.stringify(topology)],
    [WORLD_GEOJSON_PATH, JSON.stringify(topologyToGeoJSON(topology, 'countries'))],
  ]);
}

/** Astro integration: serves the maps from memory in dev and writes them into the build output. */
export function mapAssets(): AstroIntegration {
  let assets: Map<string, string> | undefined;
  const files = (): Map<string, string> => {
    assets ??= buildMapAssets();
    return assets;
  };
  return {
    name: 'spaceguard:map-assets',
    hooks: {
      'astro:server:setup': ({ server }) => {
        server.middlewares.use((request, response, next) => {
          const path = request.url?.split('?')[0] ?? '';
          const body = files().get(path);
          if (!body || (request.method !== 'GET' && request.method !== 'HEAD')) {
            next();
            return;
          }
          response.setHeader('content-type', 'application/json; charset=utf-8');
          response.setHeader('cache-control', 'public, max-age=3600');
          response.end(request.method === 'HEAD' ? undefined : body);
        });
      },
      'astro:build:done': async ({ dir, logger }) => {
        const root = fileURLToPath(dir);
        for (const [path, body] of files()) {
          const target = join(root, ...path.split('/').filter(Boolean));
          await mkdir(join(target, '..'), { recursive: true });
          await writeFile(target, body);
        }
        logger.info(`world map written to ${WORLD_TOPOJSON_PATH} and ${WORLD_GEOJSON_PATH}`);
      },
    },
  };
}

export default mapAssets;
