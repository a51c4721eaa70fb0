/**
 * The event log at a glance: on a 1440×900 screen at least ten events show without scrolling, the facets
 * sit in a column beside them, and the histogram stacks each bucket by action with a legend, y labels that do not
 * overlap, and a tooltip naming the bucket's time range with whole numbers.
 */
import type { Page } from '@playwright/test';
import { expect, spaceWithEvents, test } from './fixtures.ts';
import { attachScreenshot } from './page-checks.ts';

test.use({ viewport: { width: 1440, height: 900 } });

/** A space with `count` events over the last hour: blocked, logged and allowed in turn. */
async function busySpace(page: Page, count: number): Promise<string> {
  const now = Date.now();
  const actions = ['blocked', 'logged', 'allowed'] as const;
  const lines = Array.from({ length: count }, (_, i) => ({
    time: new Date(now - 60_000 - i * 20_000).toISOString(),
    ip: `203.0.113.${(i % 200) + 1}`,
    method: 'GET',
    host: 'shop.example.test',
    path: `/products/${i}`,
    status: actions[i % 3] === 'blocked' ? 403 : 200,
    action: actions[i % 3],
    severity: actions[i % 3] === 'allowed' ? 'info' : 'high',
  }));
  return spaceWithEvents(page, 'Event log at a glance', lines);
}

test('at 1440×900 ten or more events show above the fold, beside the facets', async ({ page }, testInfo) => {
  const spaceId = await busySpace(page, 60);
  await page.goto(`/console/siem/${spaceId}?range=24h`);
  const table = page.getByRole('region', { name: 'Events, scrollable' });
  await expect(table.getByRole('row')).not.toHaveCount(0);
  await expect(page.getByRole('heading', { name: '60 events' })).toBeVisible();
  await expect(page.locator('.event-log__histogram .highcharts-column-series').first()).toBeVisible();
  await attachScreenshot(page, testInfo, 'event-log-1440x900.png');
  const visibleRows = await table.locator('tbody tr:not(.event-table__spacer)').evaluateAll((rows) => {
    const fold = window.innerHeight;
    const box = document.querySelector('.event-table')?.getBoundingClientRect();
    const bottom = Math.min(fold, box?.bottom ?? fold);
    return rows.filter((row) => row.getBoundingClientRect().bottom <= bottom).length;
  });
  expect(visibleRows, 'event rows entirely above the fold').toBeGreaterThanOrEqual(10);
  // The facets are a column to the left of the events, beside them rather than above.
  const facets = await page.getByRole('navigation', { name: 'Facets' }).boundingBox();
  const events = await table.boundingBox();
  if (!facets || !events) throw new Error('facets or table not laid out');
  expect(facets.x + facets.width).toBeLessThanOrEqual(events.x);
  expect(facets.y).toBeLessThan(events.y + events.height);
});

test('the histogram stacks each bucket by action with a legend, readable y labels and a tooltip of the bucket', async ({
  page,
}) => {
  const spaceId = await busySpace(page, 60);
  await page.goto(`/console/siem/${spaceId}?range=1h`);
  await expect(page.getByRole('heading', { name: '60 events' })).toBeVisible();
  const chart = page.locator('.event-log__histogram');
  await expect(chart.locator('.highcharts-column-series').first()).toBeVisible();
  // One series per action, named in the legend.
  await expect(page.getByRole('list', { name: 'Histogram colours' }).getByRole('listitem')).toHaveText([
    'Blocked',
    'Logged',
    'Allowed',
  ]);
  // Stacked: the three columns of a bucket share one x position and sit on top of each other.
  const stacked = await chart.locator('.highcharts-column-series').evaluateAll((series) => {
    const columns = series.map((group) =>
      [...group.querySelectorAll('.highcharts-point')].map((point) => point.getBoundingClientRect()),
    );
    return columns[0]?.some((blocked) =>
      columns[2]?.some(
        (allowed) => Math.abs(allowed.x - blocked.x) < 1 && allowed.height > 0 && allowed.bottom <= blocked.top + 1,
      ),
    );
  });
  expect(stacked, 'an allowed column stands on a blocked column of the same bucket').toBe(true);
  // The y labels do not overlap each other.
  const labels = await chart.locator('.highcharts-yaxis-labels text').evaluateAll((texts) =>
    texts.map((text) => {
      const box = text.getBoundingClientRect();
      return { top: box.top, bottom: box.bottom, text: text.textContent ?? '' };
    }),
  );
  expect(labels.length).toBeGreaterThanOrEqual(2);
  const sorted = [...labels].sort((a, b) => a.top - b.top);
  for (let i = 1; i < sorted.length; i += 1) {
    expect(sorted[i]?.top, `"${sorted[i]?.text}" overlaps "${sorted[i - 1]?.text}"`).toBeGreaterThanOrEqual(
      sorted[i - 1]?.bottom ?? 0,
    );
  }
  // The tooltip names the bucket's range (start – end) and whole numbers.
  const points = chart.locator('.highcharts-column-series').first().locator('.highcharts-point');
  const heights = await points.evaluateAll((all) => all.map((point) => point.getBoundingClientRect().height));
  const tallest = heights.indexOf(Math.max(...heights));
  await points.nth(tallest).hover({ force: true });
  const tooltip = chart.locator('.highcharts-tooltip');
  await expect(tooltip).toContainText(/\d{1,2}:\d{2}.* – .*\d{1,2}:\d{2}/);
  await expect(tooltip).toContainText(/\d+ events?/);
  await expect(tooltip).not.toContainText(/\d\.\d/);
});

test('"Last 1h" counts events by when they happened, not when they arrived', async ({ page }) => {
  // Shipped now, but two happened 90 minutes ago and one 10 minutes ago.
  const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
  const lines = [90, 90, 10].map((minutes, i) => ({
    time: ago(minutes),
    ip: '198.51.100.7',
    method: 'GET',
    path: `/late/${i}`,
    action: 'allowed',
  }));
  const spaceId = await spaceWithEvents(page, 'Late arrivals', lines);
  await page.goto(`/console/siem/${spaceId}?range=1h`);
  await expect(page.getByRole('heading', { name: '1 events' })).toBeVisible();
  await page.getByLabel('Time range').selectOption('24h');
  await expect(page.getByRole('heading', { name: '3 events' })).toBeVisible();
});

test('on a phone the events come before the saved searches and facets', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const spaceId = await busySpace(page, 12);
  await page.goto(`/console/siem/${spaceId}?range=24h`);
  const table = page.getByRole('region', { name: 'Events, scrollable' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  const events = await table.boundingBox();
  const facets = await page.getByRole('navigation', { name: 'Facets' }).boundingBox();
  if (!events || !facets) throw new Error('not laid out');
  expect(events.y).toBeLessThan(facets.y);
});
