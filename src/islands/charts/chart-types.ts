/** The chart types a user may pick, by label, and the extra types only dashboards use. */

/** Labels a user chooses from wherever a chart type can be chosen, in the order the seed lists them. */
export const CHART_TYPE_LABELS = ['Spline', 'AreaSpline', 'Line', 'Scatter', 'Column', 'Area'] as const;

/** A user-choosable chart type label. */
export type ChartTypeLabel = (typeof CHART_TYPE_LABELS)[number];

/** Highcharts series type names behind each user-choosable label. */
export const CHART_TYPES = {
  Spline: 'spline',
  AreaSpline: 'areaspline',
  Line: 'line',
  Scatter: 'scatter',
  Column: 'column',
  Area: 'area',
} as const satisfies Record<ChartTypeLabel, string>;

/** A Highcharts type name a user may choose. */
export type ChartType = (typeof CHART_TYPES)[ChartTypeLabel];

/** Types dashboards may use on top of the user-choosable ones. */
export const DASHBOARD_CHART_TYPES = { ...CHART_TYPES, Bar: 'bar', Pie: 'pie' } as const;

/** A Highcharts type name a dashboard widget may use. */
export type DashboardChartType = (typeof DASHBOARD_CHART_TYPES)[keyof typeof DASHBOARD_CHART_TYPES];

const userTypes: readonly string[] = Object.values(CHART_TYPES);
const dashboardTypes: readonly string[] = Object.values(DASHBOARD_CHART_TYPES);

/** Turns anything (a URL query value, a saved preference) into a user-choosable type, or the fallback. */
export function parseChartType(value: unknown, fallback: ChartType = 'spline'): ChartType {
  return typeof value === 'string' && userTypes.includes(value) ? (value as ChartType) : fallback;
}

/** Turns anything (a saved dashboard widget) into a dashboard type, or the fallback. */
export function parseDashboardChartType(value: unknown, fallback: DashboardChartType = 'line'): DashboardChartType {
  return typeof value === 'string' && dashboardTypes.includes(value) ? (value as DashboardChartType) : fallback;
}
