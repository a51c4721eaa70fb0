/**
 * The dashboard being edited, as pure changes of its model: what the grid's drag, the keyboard, the widget form and
 * the type switch do. Every change keeps the grid inside its columns. Loaded by the dashboard page on its first change.
 */
import { dashboardLimits, type WidgetType } from '../../../contract/constants/dashboards.ts';
import type { DashboardModel, GridPos, Widget } from '../../../contract/dashboards.ts';

const { columns, maxHeight, maxRow } = dashboardLimits;
const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** A position moved inside the grid: never left of column 0, past the last column, or above row 0. */
export function inGrid(pos: GridPos): GridPos {
  const w = clamp(Math.round(pos.w), 1, columns);
  const h = clamp(Math.round(pos.h), 1, maxHeight);
  return { x: clamp(Math.round(pos.x), 0, columns - w), y: clamp(Math.round(pos.y), 0, maxRow), w, h };
}

function withWidget(model: DashboardModel, id: string, change: (widget: Widget) => Widget): DashboardModel {
  return { ...model, widgets: model.widgets.map((widget) => (widget.id === id ? change(widget) : widget)) };
}

const overlaps = (a: GridPos, b: GridPos) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Widgets the one with `id` now covers move down below it, and so on for those they then cover (as a drag does). */
export function pushDown(model: DashboardModel, id: string): DashboardModel {
  const widgets = model.widgets.map((widget) => ({ ...widget, gridPos: { ...widget.gridPos } }));
  const queue = widgets.filter((widget) => widget.id === id);
  for (let moved = queue.shift(); moved; moved = queue.shift()) {
    for (const other of widgets) {
      if (other === moved || other.id === id || !overlaps(moved.gridPos, other.gridPos)) continue;
      other.gridPos.y = moved.gridPos.y + moved.gridPos.h;
      queue.push(other);
    }
  }
  return { ...model, widgets };
}

/** Moves a widget by whole columns and rows (the keyboard's arrow keys); widgets in its way move down. */
export function moveWidget(model: DashboardModel, id: string, dx: number, dy: number): DashboardModel {
  const moved = withWidget(model, id, (widget) => ({
    ...widget,
    gridPos: inGrid({ ...widget.gridPos, x: widget.gridPos.x + dx, y: widget.gridPos.y + dy }),
  }));
  return pushDown(moved, id);
}

/** Widens or heightens a widget (Shift with the arrow keys); it stays inside the grid, widgets in its way move down. */
export function resizeWidget(model: DashboardModel, id: string, dw: number, dh: number): DashboardModel {
  const resized = withWidget(model, id, (widget) => {
    const { x, y } = widget.gridPos;
    const w = clamp(widget.gridPos.w + dw, 1, columns - x);
    return { ...widget, gridPos: { x, y, w, h: clamp(widget.gridPos.h + dh, 1, maxHeight) } };
  });
  return pushDown(resized, id);
}

/** Positions from the grid library after a drag or resize, by widget id. */
export function applyLayout(
  model: DashboardModel,
  layout: readonly { i: string; x: number; y: number; w: number; h: number }[],
): DashboardModel {
  const byId = new Map(layout.map((item) => [item.i, item]));
  let changed = false;
  const widgets = model.widgets.map((widget) => {
    const item = byId.get(widget.id);
    if (!item) return widget;
    const gridPos = inGrid(item);
    const old = widget.gridPos;
    if (gridPos.x === old.x && gridPos.y === old.y && gridPos.w === old.w && gridPos.h === old.h) return widget;
    changed = true;
    return { ...widget, gridPos };
  });
  return changed ? { ...model, widgets } : model;
}

/** The first row below every widget: where a new widget goes. */
export function nextRow(model: DashboardModel): number {
  return model.widgets.reduce((bottom, widget) => Math.max(bottom, widget.gridPos.y + widget.gridPos.h), 0);
}

/** An id not yet used in the dashboard, from a title (`top-countries`, `top-countries-2`…). */
export function freshId(model: DashboardModel, title: string): string {
  const base =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 32) || 'widget';
  const taken = new Set(model.widgets.map((widget) => widget.id));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Adds a widget below the others (its id made unique). */
export function addWidget(model: DashboardModel, widget: Omit<Widget, 'id' | 'gridPos'> & { gridPos?: GridPos }) {
  const size = widget.type === 'stat' ? { w: 6, h: 4 } : { w: 12, h: 8 };
  const gridPos = inGrid(widget.gridPos ?? { x: 0, y: nextRow(model), ...size });
  const added: Widget = { ...widget, id: freshId(model, widget.title), gridPos };
  return { model: { ...model, widgets: [...model.widgets, added] }, id: added.id };
}

/** Replaces a widget's title, type and query (the widget form), keeping its place. */
export function replaceWidget(model: DashboardModel, id: string, widget: Omit<Widget, 'id' | 'gridPos'>) {
  return withWidget(model, id, (old) => ({ ...widget, id, gridPos: old.gridPos }));
}

/** A copy right below the original, titled "… (copy)". */
export function duplicateWidget(model: DashboardModel, id: string) {
  const original = model.widgets.find((widget) => widget.id === id);
  if (!original) return { model, id };
  const title = `${original.title} (copy)`.slice(0, dashboardLimits.title);
  return addWidget(model, { ...original, title, gridPos: { ...original.gridPos, y: nextRow(model) } });
}

export function removeWidget(model: DashboardModel, id: string): DashboardModel {
  return { ...model, widgets: model.widgets.filter((widget) => widget.id !== id) };
}

export function setWidgetType(model: DashboardModel, id: string, type: WidgetType): DashboardModel {
  return withWidget(model, id, (widget) => ({ ...widget, type }));
}
