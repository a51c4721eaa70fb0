import AxeBuilder from '@axe-core/playwright';
import { forcedModeOf, layoutOf } from '../../src/lib/routes.ts';
import { expect, test } from './fixtures.ts';
import { samplePaths } from './sample-paths.ts';

for (const [route] of samplePaths()) {
  test(`${route.pattern} answers 200 in the ${layoutOf(route)} layout with no accessibility violations`, async ({
    page,
    account,
  }) => {
    const path = samplePaths(account.spaceId).find(([candidate]) => candidate === route)?.[1] as string;
    if (route.pattern === '/auth/landing') {
      // Signed in, the landing page moves on at once: check its shell, then where it leads.
      const shell = await page.request.get(path);
      expect(shell.status()).toBe(200);
      expect(await shell.text()).toContain('data-layout="auth"');
      await page.goto(path);
      await expect(page).toHaveURL(/\/(console\/[0-9a-f-]+|spaces)$/);
      return;
    }
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(path);
    expect(await page.locator('html').getAttribute('data-layout')).toBe(layoutOf(route));
    await expect(page).toHaveTitle(`${route.title} · Spaceguard`);
    if (route.pattern !== '/error') {
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    }
    await page.waitForLoadState('networkidle');
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
    const forced = forcedModeOf(route);
    if (forced) expect(await page.locator('html').getAttribute('data-forced-mode')).toBe(forced);
  });
}

test('console pages pass axe in dark mode too', async ({ page, account }) => {
  // Five pages, each with a full axe run (the overview's charts and map take seconds on a loaded machine).
  test.slow();
  await page.addInitScript(() => localStorage.setItem('spaceguard:color-mode', 'dark'));
  for (const path of [`/console/${account.spaceId}`, '/spaces', '/profile', '/', '/no-such-page']) {
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.waitForLoadState('networkidle');
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => `${path} ${violation.id}: ${violation.help}`)).toEqual([]);
  }
});

test('the console rail links every area of the space in the URL and marks the current one', async ({
  page,
  account,
}) => {
  const SAMPLE_SPACE_ID = account.spaceId;
  await page.goto(`/console/siem/${SAMPLE_SPACE_ID}`);
  const rail = page.getByRole('navigation', { name: 'Console' });
  await expect(rail.getByRole('link', { name: 'Events' })).toHaveAttribute('aria-current', 'page');
  await expect(rail.getByRole('link', { name: 'Overview' })).toHaveAttribute('href', `/console/${SAMPLE_SPACE_ID}`);
  // The space is remembered (local storage by default) for /auth/landing.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('spaceguard:last-space'))).toBe(SAMPLE_SPACE_ID);
  await rail.getByRole('link', { name: 'Members' }).click();
  await expect(page).toHaveURL(`/console/management/member/${SAMPLE_SPACE_ID}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
});

test('the keyboard reaches the skip link, the rail and the theme toggle', async ({ page, account }) => {
  await page.goto(`/console/${account.spaceId}`);
  await page.waitForLoadState('networkidle');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
  const toggle = page.getByRole('radio', { name: /Dark/ });
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});
