import type { Request } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { nextFrames, requestsSeen } from './page-checks.ts';

test('links are prefetched, never more than 4 at once', async ({ page, account }) => {
  let inFlight = 0;
  let peak = 0;
  const prefetched = new Set<string>();
  await page.route(`**/console/**`, async (route, request) => {
    if (request.isNavigationRequest()) return route.continue();
    prefetched.add(new URL(request.url()).pathname);
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 400));
    inFlight -= 1;
    await route.continue();
  });
  await page.goto(`/console/${account.spaceId}`);
  // The rail links all twelve areas; eleven are other pages.
  await expect.poll(() => prefetched.size, { timeout: 10_000 }).toBeGreaterThanOrEqual(11);
  expect(peak).toBeGreaterThan(1);
  expect(peak).toBeLessThanOrEqual(4);
});

for (const [name, connection] of [
  ['a data-saver connection', { saveData: true, effectiveType: '4g' }],
  ['a slow (2G) link', { saveData: false, effectiveType: '2g' }],
] as const) {
  test(`nothing is prefetched on ${name}`, async ({ page, account }) => {
    await page.addInitScript((value) => {
      // Chromium reports saveData only when the user asked for it, and 4g here: stand in for that connection.
      Object.defineProperty(navigator, 'connection', { value });
    }, connection);
    const prefetched: string[] = [];
    page.on('request', (request) => {
      if (!request.isNavigationRequest() && request.resourceType() !== 'script' && request.url().includes('/console/'))
        prefetched.push(request.url());
    });
    await page.goto(`/console/${account.spaceId}`);
    await page.waitForLoadState('networkidle');
    // The rail's links are on screen and their observers have run: a prefetch would have been asked for by now.
    await expect(page.locator('a[href*="/console/"]').first()).toBeVisible();
    await nextFrames(page);
    await requestsSeen(page);
    expect(prefetched).toEqual([]);
  });
}

test('prefetching fetches pages only, never API data', async ({ page, account }) => {
  // Every request is kept as it starts; its headers are read while the test runs (a listener still reading them
  // once the test has ended would fail it).
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  const prefetched = async (api: boolean) => {
    const urls: string[] = [];
    for (const request of [...requests]) {
      const purpose = (await request.allHeaders())['sec-purpose'] ?? '';
      if (purpose.includes('prefetch') && new URL(request.url()).pathname.startsWith('/api/') === api)
        urls.push(request.url());
    }
    return urls;
  };
  await page.goto(`/console/${account.spaceId}`);
  await expect.poll(async () => (await prefetched(false)).length, { timeout: 10_000 }).toBeGreaterThan(0);
  await page.waitForLoadState('networkidle');
  expect(await prefetched(true)).toEqual([]);
});
