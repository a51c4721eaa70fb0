import { expect, test } from './fixtures.ts';

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

test('nothing is prefetched on a data-saver connection', async ({ page, account }) => {
  await page.addInitScript(() => {
    // Chromium only reports saveData when the user asked for it; stand in for that setting.
    Object.defineProperty(navigator, 'connection', { value: { saveData: true, effectiveType: '4g' } });
  });
  const prefetched: string[] = [];
  page.on('request', (request) => {
    if (!request.isNavigationRequest() && request.resourceType() !== 'script' && request.url().includes('/console/'))
      prefetched.push(request.url());
  });
  await page.goto(`/console/${account.spaceId}`);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1000);
  expect(prefetched).toEqual([]);
});
