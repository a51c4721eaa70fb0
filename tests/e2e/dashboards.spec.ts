/**
 * Dashboards through the built pages and the real API: a dashboard built with one widget of every type,
 * a type switched, widgets dragged, resized and moved with the keyboard, all kept over a reload; export and import
 * give an equal dashboard; a variable narrows every widget; a viewer has no edit control and cannot write; two
 * editors saving the same version get one conflict. Accessible in view and edit mode, no sideways scroll at 375 px.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { BASE_URL } from './base-url.ts';
import { createAccount, expect, mailedLink, spaceWithEvents as spaceWithLines, test } from './fixtures.ts';
import { attachScreenshot, expectNoAxeViolations, expectNoSidewaysScroll } from './page-checks.ts';

const headers = { origin: BASE_URL };

/** A space with a JSON source and eight events of the last hour from three countries. */
async function spaceWithEvents(page: Page, name: string): Promise<string> {
  const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
  // The country comes from the address (the bundled IP-to-country table): FR, US and GB here.
  const event = (minutes: number, ip: string, action: string, extra: Record<string, unknown> = {}) => ({
    time: ago(minutes),
    ip,
    method: 'GET',
    host: 'shop.example.test',
    path: '/search',
    status: action === 'blocked' ? 403 : 200,
    action,
    severity: action === 'blocked' ? 'critical' : 'info',
    ...extra,
  });
  const lines = [
    event(2, '2.2.2.2', 'blocked', { ruleIds: [942100], tags: ['attack-sqli'] }),
    event(5, '2.2.2.2', 'blocked', { ruleIds: [942100], tags: ['attack-sqli'] }),
    event(8, '2.2.2.3', 'allowed'),
    event(12, '8.8.8.8', 'blocked', { ruleIds: [941100], tags: ['attack-xss'] }),
    event(15, '8.8.4.4', 'allowed'),
    event(20, '8.8.4.4', 'allowed'),
    event(30, '81.2.69.142', 'logged', { ruleIds: [920350] }),
    event(40, '81.2.69.142', 'allowed', { host: 'api.example.test' }),
  ];
  return spaceWithLines(page, name, lines);
}

type WidgetSpec = {
  title: string;
  type: string;
  group: 'Time' | 'A field’s values' | 'Nothing (one number)';
  field?: string;
  metric?: { label: string; field: string };
};

/** Adds a widget through the form, waiting for its live preview first. */
async function addWidget(page: Page, spec: WidgetSpec): Promise<void> {
  await page.getByRole('region', { name: 'Edit dashboard' }).getByRole('button', { name: 'Add widget' }).click();
  const form = page.getByRole('form', { name: 'New widget' });
  await form.getByLabel('Title').fill(spec.title);
  if (spec.metric) {
    await form.getByLabel('Metric').selectOption({ label: spec.metric.label });
    await form.getByLabel(/^Field to/).selectOption({ label: spec.metric.field });
  }
  await form.getByLabel('Group by').selectOption({ label: spec.group });
  if (spec.field) await form.getByLabel('Field', { exact: true }).selectOption({ label: spec.field });
  await form.getByLabel('Chart type').selectOption({ label: spec.type });
  const preview = form.getByRole('region', { name: 'Preview' });
  await expect(preview.getByText(/Loading the preview|Fix the query/)).toHaveCount(0);
  await expect(preview.locator('.sg-chart, .sg-widget__stat, table').first()).toBeVisible();
  await form.getByRole('button', { name: 'Add widget' }).click();
  await expect(form).toHaveCount(0);
}

const everyType: WidgetSpec[] = [
  { title: 'Spline chart', type: 'Spline', group: 'Time' },
  { title: 'Area spline chart', type: 'Area spline', group: 'Time' },
  { title: 'Line chart', type: 'Line', group: 'Time' },
  { title: 'Scatter chart', type: 'Scatter', group: 'Time' },
  { title: 'Column chart', type: 'Column', group: 'A field’s values', field: 'Host' },
  { title: 'Area chart', type: 'Area', group: 'Time' },
  { title: 'Bar chart', type: 'Bar', group: 'A field’s values', field: 'Rule' },
  { title: 'Pie chart', type: 'Pie', group: 'A field’s values', field: 'Action' },
  { title: 'Stock chart', type: 'Stock (time series with navigator)', group: 'Time' },
  { title: 'Map chart', type: 'World map', group: 'A field’s values', field: 'Country' },
  {
    title: 'Distinct clients',
    type: 'Single number',
    group: 'Nothing (one number)',
    metric: { label: 'Distinct values of a field', field: 'Client IP' },
  },
  { title: 'Table of IPs', type: 'Table', group: 'A field’s values', field: 'Client IP' },
];

type StoredWidget = { id: string; type: string; gridPos: { x: number; y: number; w: number; h: number } };
type Stored = { id: string; version: number; widgets: StoredWidget[]; [key: string]: unknown };

async function stored(page: Page, spaceId: string, id: string): Promise<Stored> {
  const answer = await page.request.get(`/api/spaces/${spaceId}/dashboards/${id}`);
  expect(answer.status()).toBe(200);
  return (await answer.json()) as Stored;
}

/** The model of a stored dashboard, as export writes it. */
function model(dashboard: Stored) {
  const {
    id: _id,
    version: _v,
    isDefault: _d,
    createdAt: _ca,
    createdBy: _cb,
    updatedAt: _ua,
    updatedBy: _ub,
    ...rest
  } = dashboard;
  return rest;
}

test('a dashboard of every widget type: type switch, drag, resize and keyboard moves persist; export and import are equal', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const spaceId = await spaceWithEvents(page, 'Dashboards');
  await page.goto(`/console/dashboard/${spaceId}`);
  // Every space starts with its default overview.
  const table = page.getByRole('table');
  await expect(table.getByRole('link', { name: 'Overview' })).toBeVisible();
  await expect(table.getByText('Default')).toBeVisible();
  await expectNoAxeViolations(page, 'dashboard list');
  await expectNoSidewaysScroll(page, 'dashboard list');

  await page.getByRole('button', { name: 'New dashboard' }).click();
  await page.getByRole('form', { name: 'New dashboard' }).getByLabel('Title').fill('Everything');
  await page.getByRole('button', { name: 'Create dashboard' }).click();
  await expect(page).toHaveURL(/\/console\/dashboard\/explore\//);
  const id = page.url().split('/').at(-1) as string;
  await expect(page.getByRole('heading', { level: 1, name: 'Everything' })).toBeVisible();

  await page.getByRole('button', { name: 'Add a widget' }).click();
  await page.getByRole('button', { name: 'Close' }).click();
  for (const spec of everyType) await addWidget(page, spec);
  await expectNoAxeViolations(page, 'dashboard in edit mode');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved as version 2.')).toBeVisible();
  const saved = await stored(page, spaceId, id);
  expect(saved.widgets.map((widget) => widget.type)).toEqual([
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
  ]);

  // In view mode every widget draws: charts, the map, the number and the table.
  for (const spec of everyType) {
    const widget = page.getByRole('region', { name: spec.title, exact: true });
    await expect(widget.getByText('Loading…')).toHaveCount(0);
  }
  await expect(page.getByRole('region', { name: 'Distinct clients' }).getByText('5', { exact: true })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Map chart' }).locator('.highcharts-series.highcharts-map-series'),
  ).toBeVisible();
  await expectNoAxeViolations(page, 'dashboard in view mode');
  await attachScreenshot(page, testInfo, 'dashboard-every-type.png');

  // Switching a widget's chart type is a change to save.
  await page.getByLabel('Chart type of Spline chart').selectOption({ label: 'Column' });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved as version 3.')).toBeVisible();

  // Drag a widget right by its handle, resize another by its corner, and move a third with the keyboard.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const handle = page.getByRole('button', { name: 'Move or resize Area spline chart' });
  await handle.scrollIntoViewIfNeeded();
  const from = await handle.boundingBox();
  if (!from) throw new Error('no handle');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 400, from.y + from.height / 2 + 5, { steps: 12 });
  await page.mouse.up();
  const corner = page
    .locator('.react-grid-item', { has: page.locator('[data-widget="line-chart"]') })
    .locator('.react-resizable-handle');
  await corner.scrollIntoViewIfNeeded();
  const edge = await corner.boundingBox();
  if (!edge) throw new Error('no resize handle');
  await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
  await page.mouse.down();
  await page.mouse.move(edge.x + 200, edge.y + 120, { steps: 12 });
  await page.mouse.up();
  await page.getByRole('button', { name: 'Move or resize Pie chart' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  await expect(page.getByText(/Pie chart: column \d+, row \d+, \d+ columns wide, 9 rows tall\./)).toBeAttached();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved as version 4.')).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Chart type of Spline chart')).toHaveValue('column');
  const after = await stored(page, spaceId, id);
  const before = new Map(saved.widgets.map((widget) => [widget.id, widget.gridPos]));
  const moved = (widgetId: string) => after.widgets.find((widget) => widget.id === widgetId)?.gridPos;
  expect(moved('area-spline-chart')?.x).toBeGreaterThan(before.get('area-spline-chart')?.x ?? 0);
  expect(moved('line-chart')?.w).toBeGreaterThan(before.get('line-chart')?.w ?? 0);
  expect(moved('line-chart')?.h).toBeGreaterThan(before.get('line-chart')?.h ?? 0);
  expect(moved('pie-chart')).toMatchObject({
    x: (before.get('pie-chart')?.x ?? 0) + 1,
    h: (before.get('pie-chart')?.h ?? 0) + 1,
  });
  await expectNoSidewaysScroll(page, 'dashboard');

  // Export, then import the file from the list: an equal dashboard.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const file = await (await download).path();
  const exported = JSON.parse(readFileSync(file, 'utf8'));
  expect(exported).toEqual(model(after));
  await page.goto(`/console/dashboard/${spaceId}`);
  await page.getByLabel('Import JSON').setInputFiles(file);
  await expect(page.getByText(/Imported Everything with 12 widgets\./)).toBeVisible();
  const list = (await (await page.request.get(`/api/spaces/${spaceId}/dashboards`)).json()) as {
    items: { id: string; title: string }[];
  };
  const copies = list.items.filter((item) => item.title === 'Everything' && item.id !== id);
  expect(copies).toHaveLength(1);
  expect(model(await stored(page, spaceId, copies[0]?.id as string))).toEqual(exported);

  // A broken file is refused with its problems named.
  await page.getByLabel('Import JSON').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      JSON.stringify({ ...exported, widgets: [{ ...exported.widgets[0], gridPos: { x: 20, y: 0, w: 8, h: 4 } }] }),
    ),
  });
  await expect(
    page.getByText('widgets.0.gridPos.w: The grid has 24 columns: x + w must be at most 24 (it is 28).'),
  ).toBeVisible();
  // The Free plan's three dashboards are used: a fourth is refused with the plan's words.
  await page.getByRole('button', { name: 'Duplicate Overview' }).click();
  await expect(page.getByText(/Dashboards on Free: 3 of 3 used; Pro allows 20/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'See plans' })).toBeVisible();
});

test('a variable narrows every widget; a viewer has no edit control and cannot write; one of two saves of a version conflicts', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const spaceId = await spaceWithEvents(page, 'Dashboard variables');
  const stat = (widgetId: string, title: string, filter: string) => ({
    id: widgetId,
    title,
    type: 'stat',
    gridPos: { x: widgetId === 'all' ? 0 : 6, y: 0, w: 6, h: 4 },
    query: { metric: 'count', groupBy: { kind: 'none' }, filter },
  });
  const created = await page.request.post(`/api/spaces/${spaceId}/dashboards`, {
    headers,
    data: {
      schemaVersion: 1,
      title: 'By country',
      timeRange: { from: 'now-24h', to: 'now' },
      refreshSeconds: 0,
      variables: [{ name: 'country', field: 'country' }],
      widgets: [stat('all', 'Events', '$country'), stat('blocked', 'Blocked', 'action:blocked $country')],
    },
  });
  expect(created.status()).toBe(201);
  const dashboard = (await created.json()) as Stored;
  await page.goto(`/console/dashboard/explore/${spaceId}/${dashboard.id}`);
  const value = (title: string) =>
    page.getByRole('region', { name: title, exact: true }).locator('.sg-widget__stat-value');
  await expect(value('Events')).toHaveText('8');
  await expect(value('Blocked')).toHaveText('3');
  await page.getByLabel('$country (Country)').selectOption('FR');
  await expect(value('Events')).toHaveText('3');
  await expect(value('Blocked')).toHaveText('2');
  await page.getByLabel('$country (Country)').selectOption('GB');
  await expect(value('Events')).toHaveText('2');
  await expect(value('Blocked')).toHaveText('0');
  // The view is in the address: a reload (or the link, shared) shows the same variable and range.
  await expect(page).toHaveURL(/[?&]var-country=GB(&|$)/);
  await page.getByLabel('Time range').selectOption({ label: 'Last 7 days' });
  await expect(page).toHaveURL(/[?&]from=now-7d&to=now/);
  await page.reload();
  await expect(page.getByLabel('$country (Country)')).toHaveValue('GB');
  await expect(page.getByLabel('Time range')).toHaveValue('now-7d');
  await expect(value('Events')).toHaveText('2');

  // Two editors based on version 1: one save wins, the other sees both versions.
  const second = await page.context().newPage();
  await second.goto(`/console/dashboard/explore/${spaceId}/${dashboard.id}`);
  await expect(second.getByRole('region', { name: 'Blocked', exact: true })).toBeVisible();
  await page.getByLabel('Chart type of Events').selectOption({ label: 'Table' });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved as version 2.')).toBeVisible();
  await second.getByRole('button', { name: 'Edit', exact: true }).click();
  await second.getByRole('button', { name: 'Remove Blocked' }).click();
  await second.getByRole('button', { name: 'Save', exact: true }).click();
  const conflict = second.getByRole('alert').filter({ hasText: 'saved this dashboard while you were editing it' });
  await expect(conflict).toBeVisible();
  await expect(conflict.getByText('Changed widget "Events": type stat → table')).toBeVisible();
  await expect(conflict.getByText('Removed widget "Blocked"')).toBeVisible();
  await expectNoAxeViolations(second, 'conflict view');
  await second.getByRole('button', { name: 'Discard mine and load theirs' }).click();
  await expect(second.getByRole('region', { name: 'Blocked', exact: true })).toBeVisible();
  // The same through the API: two saves of one version, one 200 and one 409.
  const body = { ...model(await stored(page, spaceId, dashboard.id)), version: 2 };
  const answers = await Promise.all([
    page.request.put(`/api/spaces/${spaceId}/dashboards/${dashboard.id}`, { headers, data: { ...body, title: 'A' } }),
    page.request.put(`/api/spaces/${spaceId}/dashboards/${dashboard.id}`, { headers, data: { ...body, title: 'B' } }),
  ]);
  expect(answers.map((answer) => answer.status()).sort()).toEqual([200, 409]);

  // A viewer reads the dashboard, switches nothing into a save, and the API refuses its writes.
  const other = await browser.newContext({ baseURL: BASE_URL });
  const viewerPage = await other.newPage();
  const viewer = await createAccount(viewerPage.request, 'dash-viewer');
  expect(
    (
      await page.request.post(`/api/spaces/${spaceId}/invitations`, {
        data: { email: viewer.email, role: 'viewer' },
        headers,
      })
    ).status(),
  ).toBe(201);
  const link = await mailedLink(viewerPage.request, viewer.email, '/spaces?invitation=');
  const token = new URLSearchParams(link.split('?')[1]).get('invitation') ?? '';
  expect((await viewerPage.request.post(`/api/invitations/${token}/accept`, { headers })).ok()).toBe(true);
  await viewerPage.goto(`/console/dashboard/explore/${spaceId}/${dashboard.id}`);
  await expect(viewerPage.getByRole('region', { name: 'Blocked', exact: true })).toBeVisible();
  await expect(viewerPage.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);
  await viewerPage.getByLabel('Chart type of Blocked').selectOption({ label: 'Table' });
  await expect(viewerPage.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
  await expectNoAxeViolations(viewerPage, 'viewer dashboard');
  await viewerPage.goto(`/console/dashboard/${spaceId}`);
  // Renamed A or B by whichever of the two saves above won.
  await expect(viewerPage.getByRole('link', { name: /^(A|B)$/ })).toBeVisible();
  await expect(viewerPage.getByRole('button', { name: 'New dashboard' })).toHaveCount(0);
  await expect(viewerPage.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  const current = await stored(page, spaceId, dashboard.id);
  const refused = await viewerPage.request.put(`/api/spaces/${spaceId}/dashboards/${dashboard.id}`, {
    headers,
    data: { ...model(current), version: current.version },
  });
  expect([403, 404]).toContain(refused.status());
  await other.close();
});

test('auto refresh asks again each interval but not while the tab is hidden; a zoom narrows the range; kiosk mode', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const spaceId = await spaceWithEvents(page, 'Dashboard refresh');
  const created = await page.request.post(`/api/spaces/${spaceId}/dashboards`, {
    headers,
    data: {
      schemaVersion: 1,
      title: 'Live',
      timeRange: { from: 'now-1h', to: 'now' },
      refreshSeconds: 10,
      variables: [],
      widgets: [
        {
          id: 'total',
          title: 'Total',
          type: 'stat',
          gridPos: { x: 0, y: 0, w: 6, h: 4 },
          query: { metric: 'count', groupBy: { kind: 'none' }, filter: '' },
        },
        {
          id: 'over-time',
          title: 'Over time',
          type: 'column',
          gridPos: { x: 0, y: 4, w: 24, h: 8 },
          query: { metric: 'count', groupBy: { kind: 'time', interval: '1m' }, filter: '' },
        },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith(`/api/spaces/${spaceId}/query`)) asked.push(request.postData() ?? '');
  });
  await page.clock.install();
  await page.goto(`/console/dashboard/explore/${spaceId}/${id}`);
  await expect(page.getByRole('region', { name: 'Total' }).locator('.sg-widget__stat-value')).toHaveText('8');
  await expect(page.getByRole('region', { name: 'Over time' }).locator('.highcharts-root')).toBeVisible();
  expect(asked).toHaveLength(2);

  // Every 10 seconds both widgets are asked again, over the moved range.
  await page.clock.fastForward(10_000);
  await expect.poll(() => asked.length).toBe(4);
  // A hidden tab asks nothing, however long; shown again, it catches up at once.
  await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.clock.fastForward(60_000);
  await page.waitForTimeout(300);
  expect(asked).toHaveLength(4);
  await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect.poll(() => asked.length).toBe(6);

  // Dragging across the time chart zooms: the range becomes those two instants, and both widgets ask for it.
  await page.getByLabel('Auto refresh').selectOption({ label: 'Off' });
  const plot = page.getByRole('region', { name: 'Over time' }).locator('.highcharts-plot-background');
  const box = await plot.boundingBox();
  if (!box) throw new Error('no plot');
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(page.getByLabel('Time range', { exact: true })).toHaveValue('custom');
  await expect.poll(() => asked.length).toBe(8);
  const zoomed = JSON.parse(asked.at(-1) ?? '{}') as { from: string; to: string };
  const span = Date.parse(zoomed.to) - Date.parse(zoomed.from);
  expect(span).toBeGreaterThan(5 * 60_000);
  expect(span).toBeLessThan(40 * 60_000);

  // Kiosk mode: only the dashboard, its title and a way out.
  await page.getByRole('button', { name: 'Full screen' }).click();
  await expect(page.getByRole('button', { name: 'Exit full screen' })).toBeVisible();
  await expect(page.getByLabel('Time range', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page, 'kiosk mode');
  await page.keyboard.press('Escape');
  await expect(page.getByLabel('Time range', { exact: true })).toBeVisible();
});
