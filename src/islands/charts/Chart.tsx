/** The one generic Highcharts island: loads Highcharts lazily, creates the chart once, then updates it in place. */
import { useStore } from '@nanostores/react';
import type { Options, SeriesOptionsType } from 'highcharts';
import { HighchartsReact, type HighchartsReactRefObject } from 'highcharts-react-official';
import { useEffect, useMemo, useRef, useState } from 'react';
import { $theme } from '../../stores/theme.ts';
import { themeOptions } from './chart-theme.ts';
import type { DashboardChartType } from './chart-types.ts';
import { type ChartModule, type Highcharts, loadHighcharts } from './load-modules.ts';
import { fetchMapData, type MapGeometry } from './map-data.ts';
import './Chart.css';

/** The Highcharts factory a chart is built with. */
export type ChartConstructor = 'chart' | 'stockChart' | 'mapChart';

/** Props shared by Highchart, Highstock and Highmap. */
export interface ChartProps {
  /** Highcharts options; series, axes, title and so on. Theme colours are applied on top of defaults, under these. */
  readonly options: Options;
  /** Accessible name of the chart region, read before the chart's own screen-reader summary. */
  readonly label: string;
  /** Draws every series with this type (a user's choice from ChartTypeSelect, or a dashboard's). */
  readonly type?: DashboardChartType | undefined;
  /** Extra extension modules on top of accessibility and exporting. */
  readonly modules?: readonly ChartModule[] | undefined;
  /** Height of the chart area in pixels or any CSS length; 400 px by default. */
  readonly height?: number | string | undefined;
  /** Extra class on the chart frame. */
  readonly className?: string | undefined;
}

/** Props of the generic chart. */
export interface GenericChartProps extends ChartProps {
  readonly constructorType: ChartConstructor;
  /** Map data (TopoJSON or GeoJSON) or the address to GET it from; map charts only. */
  readonly mapData?: MapGeometry | string | undefined;
}

/** Message written to the console by a map chart that has no map data (the seed's behaviour). */
export const NO_MAP_DATA_MESSAGE = 'Highmap: no map data provided; the map is not drawn.';

const REQUIRED_MODULES: Readonly<Record<ChartConstructor, readonly ChartModule[]>> = {
  chart: [],
  stockChart: ['stock'],
  mapChart: ['map'],
};

// Local exports only: PDF would need jsPDF from a URL, and nothing is fetched from outside the site.
const DEFAULT_OPTIONS: Options = {
  // No "Chart title" placeholder: the page's heading and `label` name the chart; a caller may still set a title.
  title: { text: '' },
  exporting: {
    buttons: {
      contextButton: {
        menuItems: [
          'viewFullscreen',
          'printChart',
          'separator',
          'downloadPNG',
          'downloadJPEG',
          'downloadSVG',
          'separator',
          'downloadCSV',
          'downloadXLS',
        ],
      },
    },
  },
};

type MapState =
  | { readonly status: 'none' }
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly geometry: MapGeometry }
  | { readonly status: 'failed' };

function withType(options: Options, type: DashboardChartType | undefined): Options {
  if (!type) return options;
  const series = options.series?.map((item) => ({ ...item, type }) as SeriesOptionsType);
  return { ...options, chart: { ...options.chart, type }, ...(series ? { series } : {}) };
}

/** Resolves the map data prop: objects as they are, strings fetched once, nothing logged and left undrawn. */
function useMapGeometry(isMap: boolean, mapData: MapGeometry | string | undefined): MapState {
  const [state, setState] = useState<MapState>(() =>
    typeof mapData === 'object' ? { status: 'ready', geometry: mapData } : { status: 'none' },
  );
  useEffect(() => {
    if (!isMap) return;
    if (mapData === undefined || mapData === '') {
      console.warn(NO_MAP_DATA_MESSAGE);
      setState({ status: 'none' });
      return;
    }
    if (typeof mapData === 'object') {
      setState({ status: 'ready', geometry: mapData });
      return;
    }
    let live = true;
    setState({ status: 'loading' });
    fetchMapData(mapData).then(
      (geometry) => live && setState({ status: 'ready', geometry }),
      (error: unknown) => {
        console.error(`Highmap: map data from ${mapData} could not be read.`, error);
        if (live) setState({ status: 'failed' });
      },
    );
    return () => {
      live = false;
    };
  }, [isMap, mapData]);
  return state;
}

/**
 * Generic chart: Highcharts is imported on mount, the chart created once and updated with `chart.update` after; a new
 * `type` draws a new chart (Highcharts' in-place change of a series' type is unreliable: cartesian to pie crashes, and
 * spline to column was seen to keep the old series in Chromium).
 */
export function Chart({
  constructorType,
  options,
  label,
  type,
  modules,
  mapData,
  height = 400,
  className,
}: GenericChartProps) {
  const theme = useStore($theme);
  const chartRef = useRef<HighchartsReactRefObject>(null);
  const [highcharts, setHighcharts] = useState<Highcharts | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const isMap = constructorType === 'mapChart';
  const map = useMapGeometry(isMap, mapData);
  const moduleKey = [...REQUIRED_MODULES[constructorType], ...(modules ?? [])].join(',');

  useEffect(() => {
    let live = true;
    const wanted = moduleKey === '' ? [] : (moduleKey.split(',') as ChartModule[]);
    loadHighcharts(wanted).then(
      (loaded) => live && setHighcharts(() => loaded),
      (error: unknown) => {
        console.error('Chart: Highcharts could not be loaded.', error);
        if (live) setLoadFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [moduleKey]);

  // Theme first, then the caller's options, then what the component guarantees.
  const merged = useMemo<Options | null>(() => {
    if (!highcharts) return null;
    if (isMap && map.status !== 'ready') return null;
    const fixed: Options = {
      accessibility: { enabled: true },
      exporting: { fallbackToExportServer: false },
      chart: {
        height: typeof height === 'number' ? height : null,
        ...(isMap && map.status === 'ready' ? { map: map.geometry } : {}),
      },
    };
    return highcharts.merge(themeOptions(theme, isMap), DEFAULT_OPTIONS, withType(options, type), fixed);
  }, [highcharts, isMap, map, theme, options, type, height]);

  const frameStyle = { minHeight: typeof height === 'number' ? `${height}px` : height };
  let status: string | null = null;
  if (loadFailed) status = 'The chart could not be loaded.';
  else if (isMap && map.status === 'failed') status = 'The map could not be loaded.';

  return (
    <figure className={['sg-chart', className].filter(Boolean).join(' ')} aria-label={label} style={frameStyle}>
      {status ? (
        <p className="sg-chart__status" role="status">
          {status}
        </p>
      ) : null}
      {highcharts && merged ? (
        <HighchartsReact
          key={type ?? ''}
          ref={chartRef}
          highcharts={highcharts}
          constructorType={constructorType}
          options={merged}
          containerProps={{ className: 'sg-chart__canvas', style: { height: frameStyle.minHeight } }}
        />
      ) : null}
    </figure>
  );
}
