import { describe, expect, test } from 'vitest';
import { dashboardTemplates } from '../../../contract/constants/dashboard-templates.ts';
import { DashboardModel } from '../../../contract/dashboards.ts';
import { describeChanges } from './changes.ts';
import { exportText, refusalLines } from './dashboard-file.ts';
import { addWidget, applyLayout, duplicateWidget, moveWidget, removeWidget, resizeWidget } from './draft.ts';
import { readingOrder } from './reading.ts';

const overview = dashboardTemplates.overview.model;
const pos = (model: DashboardModel, id: string) => model.widgets.find((widget) => widget.id === id)?.gridPos;

describe('keyboard moves and resizes', () => {
  test('a widget moves by one column and stops at the grid edges', () => {
    // "requests" starts at column 0.
    expect(pos(moveWidget(overview, 'requests', -1, 0), 'requests')?.x).toBe(0);
    expect(pos(moveWidget(overview, 'requests', 1, 0), 'requests')?.x).toBe(1);
    // "actions" spans columns 18–23: one more to the right would leave the grid.
    expect(pos(moveWidget(overview, 'actions', 1, 0), 'actions')).toEqual({ x: 18, y: 0, w: 6, h: 8 });
  });

  test('widgets in the way of a move go down below it, and the result stays a valid model', () => {
    const moved = moveWidget(overview, 'requests', 0, 1);
    // requests (rows 0–3) now covers rows 1–4; requests-over-time started at row 4 and goes below it, at row 5;
    // the widgets under that follow it down.
    expect(pos(moved, 'requests')).toEqual({ x: 0, y: 1, w: 6, h: 4 });
    expect(pos(moved, 'requests-over-time')?.y).toBe(5);
    expect(pos(moved, 'countries')?.y).toBe(13);
    expect(DashboardModel.safeParse(moved).success).toBe(true);
  });

  test('Shift+arrows resize within the 24 columns and never below one column', () => {
    expect(pos(resizeWidget(overview, 'actions', 1, 0), 'actions')?.w).toBe(6);
    expect(pos(resizeWidget(overview, 'requests', 1, 1), 'requests')).toEqual({ x: 0, y: 0, w: 7, h: 5 });
    const narrow = Array.from({ length: 10 }).reduce<DashboardModel>(
      (model) => resizeWidget(model, 'requests', -1, 0),
      overview,
    );
    expect(pos(narrow, 'requests')?.w).toBe(1);
  });
});

test('a layout from the grid library changes only the widgets that moved', () => {
  const same = applyLayout(
    overview,
    overview.widgets.map((widget) => ({ i: widget.id, ...widget.gridPos })),
  );
  expect(same).toBe(overview);
  const moved = applyLayout(overview, [{ i: 'blocked', x: 30, y: 2, w: 8, h: 4 }]);
  // Past the last column it is pulled back inside the grid.
  expect(pos(moved, 'blocked')).toEqual({ x: 16, y: 2, w: 8, h: 4 });
});

test('added and duplicated widgets get unused ids and go below the others', () => {
  const query = { metric: 'count' as const, groupBy: { kind: 'none' as const }, filter: '' };
  const first = addWidget(overview, { title: 'Requests', type: 'stat', query });
  expect(first.id).toBe('requests-2');
  expect(pos(first.model, first.id)).toEqual({ x: 0, y: 30, w: 6, h: 4 });
  const copy = duplicateWidget(first.model, 'countries');
  expect(copy.model.widgets.at(-1)?.title).toBe('Blocked requests by country (copy)');
  expect(pos(copy.model, copy.id)).toEqual({ x: 0, y: 34, w: 12, h: 10 });
  expect(removeWidget(copy.model, copy.id).widgets).toHaveLength(overview.widgets.length + 1);
});

test('widgets read row by row, left to right (the phone column and the tab order)', () => {
  expect(readingOrder(overview.widgets).map((widget) => widget.id)).toEqual([
    'requests',
    'blocked',
    'clients',
    'actions',
    'requests-over-time',
    'countries',
    'top-rules',
    'top-ips',
  ]);
});

test('the conflict view says what each side changed', () => {
  const theirs = { ...removeWidget(overview, 'top-ips'), title: 'Ops overview' };
  expect(describeChanges(overview, theirs)).toEqual([
    'Title: "Overview" → "Ops overview"',
    'Removed widget "Top client IPs"',
  ]);
});

describe('dashboard files', () => {
  test('an export reads back as the same model', () => {
    expect(DashboardModel.parse(JSON.parse(exportText(overview)))).toEqual(overview);
  });

  test('a refused import lists each problem with its path', () => {
    expect(
      refusalLines(
        { refreshSeconds: 'Refresh every 0, 10, 30, 60, 300 seconds (0 is off).' },
        'Some fields need attention.',
      ),
    ).toEqual(['refreshSeconds: Refresh every 0, 10, 30, 60, 300 seconds (0 is off).']);
    expect(refusalLines({}, 'Some fields need attention.')).toEqual(['Some fields need attention.']);
  });
});
