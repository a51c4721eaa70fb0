/**
 * What every route costs before anyone touches it: every script the page fetches from opening until it has settled
 * after being scrolled through once (islands hydrated on `client:visible` and chunks loaded because something became
 * visible included), plus its inline scripts, each file gzipped at level 9 on its own and summed
 * (`bench/page-scripts.ts`, which `npm run bench` uses too), stays within 100 KB; and a signed-in page load asks the
 * API for each resource once. Chart code (Highcharts alone is 99 KB gzip) is the one thing weighed apart: it loads
 * when a chart is drawn, never with the page, and no other chunk may import it statically; `npm run bench` reports
 * it per route.
 */
import type { Request } from '@playwright/test';
import { weighScripts } from '../../bench/page-scripts.ts';
import { ROUTES } from '../../src/lib/routes.ts';
import { expect, sendEvents, test } from './fixtures.ts';
import { samplePaths } from './sample-paths.ts';

/** The budget of JavaScript before interaction, gzip. */
const JS_BUDGET_BYTES = 100 * 1024;

test.describe.configure({ mode: 'parallel' });

/** Every route, the log sources view of the event log's route, and the 404 page. */
const PAGES: readonly { readonly pattern: string; readonly search?: string }[] = [
  ...ROUTES,
  { pattern: '/console/siem/{space_id}', search: '?view=sources' },
  { pattern: '/no-such-page' },
];

for (const entry of PAGES) {
  const name = entry.pattern + (entry.search ?? '');
  test(`${name} fetches at most ${JS_BUDGET_BYTES / 1024} KB of JavaScript (gzip) before interaction`, async ({
    page,
    account,
  }) => {
    const route = ROUTES.find((item) => item.pattern === entry.pattern);
    const sample = samplePaths(account.spaceId).find(([item]) => item === route)?.[1] ?? entry.pattern;
    const path = sample + (entry.search ?? '');
    const weight = await weighScripts(page, path);
    expect(weight.failed, `${path}: scripts that did not load`).toEqual([]);
    expect(weight.eagerChartImports, `${path}: chunks that pull chart code in before a chart is drawn`).toEqual([]);
    const listing = weight.files.map((file) => `${file.name} ${(file.gzip / 1024).toFixed(1)} KB`).join('\n');
    expect(weight.total, `${path} fetched:\n${listing}`).toBeLessThanOrEqual(JS_BUDGET_BYTES);
  });
}

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
