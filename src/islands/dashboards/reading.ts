/**
 * The dashboard as it is read, in view mode as in edit mode: its widgets in reading order, and whether a draft still
 * is the saved dashboard. The changes edit mode makes (draft.ts) load when they are first needed.
 */
import type { DashboardModel, Widget } from '../../../contract/dashboards.ts';

/** Whether two models are the same dashboard (what "unsaved changes" compares). */
export function sameModel(a: DashboardModel, b: DashboardModel): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Widgets in reading order (row, then column): the order of the single column on a phone and of the tab stops. */
export function readingOrder(widgets: readonly Widget[]): Widget[] {
  return [...widgets].sort((a, b) => a.gridPos.y - b.gridPos.y || a.gridPos.x - b.gridPos.x);
}
