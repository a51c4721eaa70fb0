import { expect, test } from './fixtures.ts';
import { samplePaths } from './sample-paths.ts';

const KEY = 'spaceguard:color-mode';
const html = (page: import('@playwright/test').Page) => page.locator('html');

test('every /auth page is forced light while the preference is dark, and the preference returns after', async ({
  page,
}) => {
  await page.goto('/spaces');
  await page.evaluate((key) => localStorage.setItem(key, 'dark'), KEY);
  for (const [route, path] of samplePaths().filter(
    ([route]) => route.pattern.startsWith('/auth/') && route.pattern !== '/auth/landing',
  )) {
    await page.goto(path);
    await expect(html(page), route.pattern).toHaveAttribute('data-theme', 'light');
    await expect(html(page)).toHaveAttribute('data-theme-forced', 'true');
  }
  await page.goto('/spaces');
  await expect(html(page)).toHaveAttribute('data-theme', 'dark');
  await expect(html(page)).not.toHaveAttribute('data-theme-forced', 'true');
});

test('the mode is applied by the inline script before any island code runs', async ({ page, account }) => {
  await page.addInitScript((key) => localStorage.setItem(key, 'dark'), KEY);
  await page.route('**/_astro/*.js', (route) => route.abort());
  await page.goto(`/console/${account.spaceId}`, { waitUntil: 'commit' });
  await page.waitForSelector('body');
  await expect(html(page)).toHaveAttribute('data-theme', 'dark');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).toBe('rgb(13, 15, 26)');
});

test('system mode follows an emulated colour-scheme change without reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/spaces');
  await page.getByRole('radio', { name: /System/ }).check();
  await expect(html(page)).toHaveAttribute('data-theme', 'light');
  const marker = await page.evaluate(() => {
    (window as unknown as { marker: number }).marker = 42;
    return 42;
  });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html(page)).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html(page)).toHaveAttribute('data-theme', 'light');
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(marker);
});

test('the inline script alone follows the OS in system mode', async ({ page }) => {
  await page.route('**/_astro/*.js*', (route) => route.abort());
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/error');
  await expect(html(page)).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html(page)).toHaveAttribute('data-theme', 'light');
});

test('the preference survives navigation and reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await page.getByRole('radio', { name: /Dark/ }).check();
  await expect(html(page)).toHaveAttribute('data-theme', 'dark');
  expect(await page.evaluate((key) => localStorage.getItem(key), KEY)).toBe('dark');
  await page.getByRole('link', { name: 'Spaces', exact: true }).click();
  await expect(page).toHaveURL('/spaces');
  await expect(html(page)).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('radio', { name: /Dark/ })).toBeChecked();
  await page.reload();
  await expect(html(page)).toHaveAttribute('data-theme', 'dark');
});
