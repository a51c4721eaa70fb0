/** The vocabulary of dashboards: plain values, no zod, for the model's schema, the query engine and the islands. */

/** How a widget draws its series. The first seven are Highcharts series types drawn by the chart island. */
export const widgetTypes = [
  'spline',
  'areaspline',
  'line',
  'scatter',
  'column',
  'area',
  'bar',
  'pie',
  'stock',
  'map',
  'stat',
  'table',
] as const;
export type WidgetType = (typeof widgetTypes)[number];

/** Words for each widget type, as the type switch and the widget form show them. */
export const widgetTypeLabels: Readonly<Record<WidgetType, string>> = {
  spline: 'Spline',
  areaspline: 'Area spline',
  line: 'Line',
  scatter: 'Scatter',
  column: 'Column',
  area: 'Area',
  bar: 'Bar',
  pie: 'Pie',
  stock: 'Stock (time series with navigator)',
  map: 'World map',
  stat: 'Single number',
  table: 'Table',
};

/** What a widget computes over the matching events. */
export const widgetMetrics = ['count', 'distinct', 'sum', 'avg'] as const;
export type WidgetMetric = (typeof widgetMetrics)[number];

export const widgetMetricLabels: Readonly<Record<WidgetMetric, string>> = {
  count: 'Count of events',
  distinct: 'Distinct values of a field',
  sum: 'Sum of a field',
  avg: 'Average of a field',
};

/** How a widget groups: by time bucket, by a field's values, or not at all (one number). */
export const groupKinds = ['time', 'field', 'none'] as const;
export type GroupKind = (typeof groupKinds)[number];

/** Time buckets a widget may ask for; `auto` picks a round width giving about `dashboardLimits.autoBuckets`. */
export const timeIntervals = ['auto', '1m', '5m', '1h', '1d'] as const;
export type TimeInterval = (typeof timeIntervals)[number];
export const timeIntervalSeconds: Readonly<Record<Exclude<TimeInterval, 'auto'>, number>> = {
  '1m': 60,
  '5m': 300,
  '1h': 3_600,
  '1d': 86_400,
};

/** Auto refresh choices in seconds; 0 is off. */
export const refreshIntervals = [0, 10, 30, 60, 300] as const;
export type RefreshSeconds = (typeof refreshIntervals)[number];

/**
 * The event fields a widget may group by or measure, as the event schema names them, with what each allows:
 * `term` is the query language's name for it (variables write `term:value`), `numeric` fields can be summed and
 * averaged, `array` fields count an event once per element when grouped.
 */
export const dashboardFields = {
  action: { term: 'action', numeric: false, array: false },
  severity: { term: 'severity', numeric: false, array: false },
  country: { term: 'country', numeric: false, array: false },
  host: { term: 'host', numeric: false, array: false },
  ip: { term: 'ip', numeric: false, array: false },
  method: { term: 'method', numeric: false, array: false },
  path: { term: 'path', numeric: false, array: false },
  status: { term: 'status', numeric: true, array: false },
  ruleIds: { term: 'rule', numeric: false, array: true },
  tags: { term: 'tag', numeric: false, array: true },
  userAgent: { term: 'ua', numeric: false, array: false },
  firewallId: { term: 'firewall', numeric: false, array: false },
  sourceId: { term: null, numeric: false, array: false },
} as const satisfies Record<string, { term: string | null; numeric: boolean; array: boolean }>;
export type DashboardField = keyof typeof dashboardFields;
export const dashboardFieldNames = Object.keys(dashboardFields) as DashboardField[];

/** Words for each field in selects and legends. */
export const dashboardFieldLabels: Readonly<Record<DashboardField, string>> = {
  action: 'Action',
  severity: 'Severity',
  country: 'Country',
  host: 'Host',
  ip: 'Client IP',
  method: 'Method',
  path: 'Path',
  status: 'HTTP status',
  ruleIds: 'Rule',
  tags: 'Tag',
  userAgent: 'User agent',
  firewallId: 'Firewall',
  sourceId: 'Source',
};

/** The bounds of one dashboard and of one widget query. */
export const dashboardLimits = {
  /** Columns of the grid; a widget's x + w stays within them. */
  columns: 24,
  /** Rows a widget may be tall, and the furthest row it may start at. */
  maxHeight: 40,
  maxRow: 1_000,
  widgets: 50,
  variables: 10,
  /** Values one multi-value variable may select at once (each is an OR alternative of the filter). */
  variableValues: 10,
  title: 120,
  description: 2_000,
  /** Values a field group returns by default and at most. */
  fieldLimitDefault: 10,
  fieldLimitMax: 100,
  /** Buckets a time group may have; a narrower interval over a longer range is refused. */
  maxBuckets: 1_500,
  /** Buckets an `auto` interval aims at. */
  autoBuckets: 60,
  /** Bytes of an imported dashboard file. */
  importBytes: 1_000_000,
} as const;

/** `now`, or `now-` a whole number of minutes, hours, days or weeks: `now-15m`, `now-24h`, `now-7d`, `now-2w`. */
export const relativeTimePattern = /^now(?:-(\d{1,6})([mhdw]))?$/;
/** Milliseconds of each unit of a relative time. */
export const relativeTimeUnitMs = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** A variable's name as filters write it after `$`. */
export const variableNamePattern = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;

/** The fields a variable may stand for: those the query language can filter on. */
export const variableFields = dashboardFieldNames.filter((field) => dashboardFields[field].term !== null);

/** The widget types drawn on x and y axes. */
export const cartesianTypes: readonly WidgetType[] = [
  'spline',
  'areaspline',
  'line',
  'scatter',
  'column',
  'area',
  'bar',
];

/** The version of the dashboard model that is stored, exported and imported. */
export const dashboardSchemaVersion = 1;
