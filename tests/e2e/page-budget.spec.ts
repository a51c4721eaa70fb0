/**
 * What every route costs before anyone touches it (issue #19): the JavaScript a route needs to hydrate its islands
 * (the inline boot script plus every chunk its islands import statically, gzip; chunks an island imports on demand,
 * such as Highcharts, the Markdown editor or the drag-and-drop grid, come later and are not counted) stays within
 * 100 KB, and a signed-in page load asks the API for each resource once.
 */
import type { Request } from '@playwright/test';
import { weighPage } from '../../bench/site-sizes.ts';
import { ROUTES } from '../../src/lib/routes.ts';
import { BASE_URL } from './base-url.ts';
import { expect, sendEvents, test } from './fixtures.ts';
import { samplePaths } from './sample-paths.ts';

/** The budget of JavaScript before interaction, gzip. */
const JS_BUDGET_BYTES = 100 * 1024;

test.describe.configure({ mode: 'parallel' });

test('every route hydrates with at most 100 KB of JavaScript (gzip)', async ({ account }) => {
  const over: string[] = [];
  for (const [route, path] of samplePaths(account.spaceId)) {
    const weight = await weighPage(BASE_URL, path);
    if (weight.js[1] > JS_BUDGET_BYTES) {
      over.push(`${route.pattern}: ${(weight.js[1] / 1024).toFixed(1)} KB`);
    }
  }
  expect(over, 'routes over the 100 KB budget').toEqual([]);
});

for (const route of ROUTES.filter((item) => item.pattern.startsWith('/console/'))) {
  test(`${route.pattern} asks the API for each resource once per page load`, async ({ page, account }) => {
    const asked: string[] = [];
    const onRequest = (request: Request): void => {
      const url = new URL(request.url());
      if (request.method() === 'GET' && url.pathname.startsWith('/api/')) asked.push(url.pathname + url.search);
    };
    page.on('request', onRequest);
    const path = samplePaths(account.spaceId).find(([item]) => item === route)?.[1] as string;
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    page.off('request', onRequest);
    expect(asked.length, `${path} asked nothing of the API`).toBeGreaterThan(0);
    const twice = [...new Set(asked.filter((url, index) => asked.indexOf(url) !== index))];
    expect(twice, `${path} asked these more than once`).toEqual([]);
  });
}

test('the event log with events and facets asks the API for each resource once', async ({ page }) => {
  const spaceId = await sendEvents(page);
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname.startsWith('/api/')) asked.push(url.pathname + url.search);
  });
  await page.goto(`/console/siem/${spaceId}`);
  await expect(page.getByRole('heading', { name: '3 events' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Facets' })).toHaveAttribute('aria-busy', 'false');
  await page.waitForLoadState('networkidle');
  const twice = [...new Set(asked.filter((url, index) => asked.indexOf(url) !== index))];
  expect(twice, 'asked more than once').toEqual([]);
  expect(asked.some((url) => url.includes('/events/histogram'))).toBe(true);
  expect(asked.some((url) => url.includes('/events/facets'))).toBe(true);
});
