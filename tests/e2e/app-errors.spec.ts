import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/** Serves a broken build of the theme toggle island, as a bad deploy would. */
async function breakThemeToggle(page: Page): Promise<void> {
  await page.route('**/_astro/ThemeToggle.*.js*', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: 'throw new Error("theme toggle exploded");' }),
  );
}

test('an island that throws at start-up shows the error page in place of the page', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await breakThemeToggle(page);
  await page.goto('/spaces');
  await expect(page.getByRole('heading', { level: 1, name: 'Lost in Space' })).toBeVisible();
  await expect(page.getByText('theme toggle exploded')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Spaces' })).toBeHidden();
  expect(errors.some((text) => text.startsWith('Error while mounting app'))).toBe(true);
});

test.describe('a bot', () => {
  test.use({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
  test('sees the page, not the error page, when an island throws; the error is only logged', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await breakThemeToggle(page);
    await page.goto('/spaces');
    await expect.poll(() => errors.some((text) => text.startsWith('Error while mounting app'))).toBe(true);
    await expect(page.getByRole('heading', { level: 1, name: 'Spaces' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Lost in Space' })).toBeHidden();
  });
});

test('a script chunk that fails to load reloads the page once, and not twice within 10 s', async ({ page }) => {
  let documents = 0;
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents += 1;
  });
  const refused: string[] = [];
  page.on('console', (message) => message.type() === 'error' && refused.push(message.text()));
  await page.route('**/_astro/ThemeToggle.*.js*', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto('/spaces');
  await expect.poll(() => refused.some((text) => text.includes('not reloading')), { timeout: 15_000 }).toBe(true);
  expect(documents).toBe(2);
  // The guard is per path: another page may still reload once.
  await page.goto('/profile');
  await expect.poll(() => documents, { timeout: 15_000 }).toBe(4);
});

test('a malformed /config.json falls back to the defaults with one warning', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
  await page.route('**/config.json', (route) =>
    route.fulfill({ contentType: 'application/json', body: '{"apiBaseUrl": ' }),
  );
  await page.goto('/spaces');
  await expect.poll(() => warnings.filter((text) => text.includes('/config.json')).length).toBe(1);
  await expect(page.getByRole('heading', { level: 1, name: 'Spaces' })).toBeVisible();
});
