/** Accessibility options for a chart that shares its page with others (the overview, a dashboard's widgets). */
import type { AccessibilityOptions } from 'highcharts';

/**
 * Several charts on one page: each chart's screen-reader summary is described by its section's heading, so no extra
 * landmark or heading level per chart (axe: landmark-unique, heading-order).
 */
export function sharedPageAccessibility(description: string): AccessibilityOptions {
  return {
    landmarkVerbosity: 'disabled',
    description,
    screenReaderSection: {
      beforeChartFormat:
        '<p>{chartTitle}</p><div>{typeDescription}</div><div>{chartLongdesc}</div><div>{viewTableButton}</div><div>{xAxisDescription}</div><div>{yAxisDescription}</div>',
    },
  };
}
