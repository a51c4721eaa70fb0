/** The Leaflet map island: tiles from the runtime config, country outlines when there are none, count markers with popups. */
import { useStore } from '@nanostores/react';
import type { CircleMarker, GeoJSON as GeoJSONLayer, LayerGroup, Map as LeafletInstance, TileLayer } from 'leaflet';
import leafletCss from 'leaflet/dist/leaflet.css?inline';
import { useEffect, useRef, useState } from 'react';
import { $config, ensureConfig } from '../../lib/config.ts';
import { $theme } from '../../stores/theme.ts';
import { markerRadius, markerStyle, outlineStyle } from './map-style.ts';
import './LeafletMap.css';
import { adoptStyle } from '../../lib/adopt-style.ts';

adoptStyle('leaflet', leafletCss);

type Leaflet = typeof import('leaflet');

/** One place on the map with how many events came from it. */
export interface MapMarker {
  /** Stable identity, e.g. a country code or an IP. */
  readonly id: string;
  readonly lat: number;
  readonly lng: number;
  /** Events at this place; sets the marker's size. */
  readonly count: number;
  /** Shown in the popup and read by screen readers, e.g. "Jakarta, ID". */
  readonly label: string;
}

/** Props of the Leaflet map. */
export interface LeafletMapProps {
  /** Accessible name of the map. */
  readonly label: string;
  /** Circle markers sized by count, each with a popup. */
  readonly markers?: readonly MapMarker[] | undefined;
  /** Initial centre [lat, lng]; [20, 0] by default. */
  readonly center?: readonly [number, number] | undefined;
  /** Initial zoom; 2 by default. */
  readonly zoom?: number | undefined;
  /** Height in pixels or any CSS length; 360 by default. */
  readonly height?: number | string | undefined;
  /** GeoJSON of the country outlines used without tiles; the site serves `/maps/world-110m.geo.json`. */
  readonly outlinesUrl?: string | undefined;
  /** Extra class on the frame. */
  readonly className?: string | undefined;
}

/** Where the site serves the country outlines. */
export const WORLD_OUTLINES_URL = '/maps/world-110m.geo.json';

const outlineLoads = new Map<string, Promise<GeoJSON.GeoJsonObject>>();

// One GET per address per page, however many maps draw outlines.
function loadOutlines(url: string): Promise<GeoJSON.GeoJsonObject> {
  let load = outlineLoads.get(url);
  if (!load) {
    load = fetch(url, { method: 'GET', headers: { accept: 'application/json' } })
      .then(async (response) => {
        if (!response.ok) throw new Error(`${url} answered ${response.status}`);
        return (await response.json()) as GeoJSON.GeoJsonObject;
      })
      .catch((error: unknown) => {
        outlineLoads.delete(url);
        throw error;
      });
    outlineLoads.set(url, load);
  }
  return load;
}

function popupContent(marker: MapMarker): HTMLElement {
  const body = document.createElement('div');
  const title = document.createElement('strong');
  title.textContent = marker.label;
  body.append(title, document.createElement('br'), `${marker.count.toLocaleString('en')} events`);
  return body;
}

interface Instance {
  readonly L: Leaflet;
  readonly map: LeafletInstance;
  readonly markers: LayerGroup;
}

/** A Leaflet map; Leaflet is imported in the browser only, the map created once and updated after. */
export function LeafletMap({
  label,
  markers = [],
  center = [20, 0],
  zoom = 2,
  height = 360,
  outlinesUrl = WORLD_OUTLINES_URL,
  className,
}: LeafletMapProps) {
  const theme = useStore($theme);
  const config = useStore($config);
  const element = useRef<HTMLElement>(null);
  const instance = useRef<Instance | null>(null);
  const [ready, setReady] = useState(false);
  const [tilesFailed, setTilesFailed] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const outlines = useRef<GeoJSONLayer | null>(null);
  const initial = useRef({ center, zoom });

  // Create the map once: Leaflet needs window, so it is imported here and never during server rendering.
  useEffect(() => {
    let live = true;
    void ensureConfig();
    import('leaflet').then(
      (module) => {
        const L = ((module as { default?: Leaflet }).default ?? module) as Leaflet;
        if (!live || !element.current || instance.current) return;
        const map = L.map(element.current, {
          center: [initial.current.center[0], initial.current.center[1]],
          zoom: initial.current.zoom,
          keyboard: true,
          worldCopyJump: true,
          attributionControl: true,
        });
        instance.current = { L, map, markers: L.layerGroup().addTo(map) };
        setReady(true);
      },
      (error: unknown) => {
        console.error('LeafletMap: Leaflet could not be loaded.', error);
        if (live) setStatus('The map could not be loaded.');
      },
    );
    return () => {
      live = false;
      instance.current?.map.remove();
      instance.current = null;
      outlines.current = null;
    };
  }, []);

  // Base layer: the configured tiles, or the site's own country outlines when there are none or they fail.
  const tileUrl = tilesFailed ? null : config.mapTileUrl;
  const attribution = config.mapAttribution;
  useEffect(() => {
    const current = instance.current;
    if (!ready || !current) return;
    const { L, map } = current;
    let live = true;
    let tiles: TileLayer | null = null;
    if (tileUrl) {
      tiles = L.tileLayer(tileUrl, { attribution, maxZoom: 18 });
      tiles.once('tileerror', () => live && setTilesFailed(true));
      tiles.addTo(map);
    } else {
      loadOutlines(outlinesUrl).then(
        (data) => {
          if (!live || instance.current !== current) return;
          outlines.current = L.geoJSON(data, { style: () => outlineStyle($theme.get()), interactive: false });
          outlines.current.addTo(map);
          outlines.current.bringToBack();
        },
        (error: unknown) => {
          console.error(`LeafletMap: country outlines from ${outlinesUrl} could not be read.`, error);
          if (live) setStatus('The map background could not be loaded.');
        },
      );
    }
    return () => {
      live = false;
      tiles?.remove();
      outlines.current?.remove();
      outlines.current = null;
    };
  }, [ready, tileUrl, attribution, outlinesUrl]);

  // Markers: redrawn when the data or the colour mode changes; each is focusable and opens its popup with Enter.
  useEffect(() => {
    const current = instance.current;
    if (!ready || !current) return;
    const { L, markers: layer } = current;
    layer.clearLayers();
    const max = Math.max(0, ...markers.map((marker) => marker.count));
    for (const marker of markers) {
      const circle: CircleMarker = L.circleMarker([marker.lat, marker.lng], {
        ...markerStyle(theme),
        radius: markerRadius(marker.count, max),
      });
      circle.bindPopup(() => popupContent(marker));
      circle.addTo(layer);
      const path = circle.getElement();
      if (path instanceof Element) {
        path.setAttribute('tabindex', '0');
        path.setAttribute('role', 'button');
        path.setAttribute('aria-label', `${marker.label}: ${marker.count.toLocaleString('en')} events`);
        path.addEventListener('keydown', (event) => {
          if (event instanceof KeyboardEvent && (event.key === 'Enter' || event.key === ' ')) {
            event.preventDefault();
            circle.openPopup();
          }
        });
      }
    }
  }, [ready, markers, theme]);

  // Outlines follow the colour mode in place.
  useEffect(() => {
    outlines.current?.setStyle(outlineStyle(theme));
  }, [theme]);

  const size = typeof height === 'number' ? `${height}px` : height;
  return (
    <figure className={['sg-leaflet', className].filter(Boolean).join(' ')} data-theme={theme}>
      <section ref={element} className="sg-leaflet__map" style={{ height: size }} aria-label={label} />
      {status ? (
        <p role="status" className="sg-leaflet__status">
          {status}
        </p>
      ) : null}
    </figure>
  );
}

export default LeafletMap;
