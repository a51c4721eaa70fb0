import { test as base, expect } from '@playwright/test';
import { test as signedIn } from './fixtures.ts';

const test = base;

const UNKNOWN = ['/console', '/console/a/b/c/d', '/auth/reset', '/no/such/page', '/spaces/extra?tab=1&q=x'];

for (const path of UNKNOWN) {
  test(`${path} answers 404 with the error page and the exact path`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByText('404', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Lost in Space' })).toBeVisible();
    await expect(
      page.getByText("Oops! The page you're looking for drifted into the cosmic void. Let's guide you back to safety!"),
    ).toBeVisible();
    await expect(page.getByText(`Page not found: ${path}`, { exact: true })).toBeVisible();
  });
}

signedIn('"Go back space" lands on /spaces', async ({ page }) => {
  await page.goto('/lost/in/orbit');
  await page.getByRole('link', { name: 'Go back space' }).click();
  await expect(page).toHaveURL('/spaces');
  await expect(page.getByRole('heading', { level: 1, name: 'Spaces' })).toBeVisible();
});

test('/error shows the error page with the default status', async ({ page }) => {
  const response = await page.goto('/error');
  expect(response?.status()).toBe(200);
  await expect(page.getByText('404', { exact: true })).toBeVisible();
  await expect(page.getByText('Page not found: /error', { exact: true })).toBeVisible();
});

test.describe('a crawler that runs no script', () => {
  test.use({ javaScriptEnabled: false, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1)' });
  test('gets status 404 and the whole error page with the requested path', async ({ page }) => {
    const response = await page.goto('/docs/missing?ref=crawl');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Lost in Space' })).toBeVisible();
    await expect(page.getByText('Page not found: /docs/missing?ref=crawl', { exact: true })).toBeVisible();
  });
});

test('a path with markup in it is shown as text', async ({ request }) => {
  const response = await request.get('/%3Cscript%3Ealert(1)%3C/script%3E');
  expect(response.status()).toBe(404);
  expect(await response.text()).not.toContain('<script>alert(1)');
});
