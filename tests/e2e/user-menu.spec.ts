/**
 * The spaces list and the profile carry the console's user menu: the signed-in name, the profile, all
 * spaces, and sign-out, which ends the session (the next visit asks to sign in again).
 */
import { BASE_URL } from './base-url.ts';
import { createAccount, expect, test } from './fixtures.ts';
import { expectNoAxeViolations, expectNoSidewaysScroll } from './page-checks.ts';

test('the spaces list and the profile have the user menu, and its sign-out ends the session', async ({ browser }) => {
  // An account of its own: signing out must not end the worker's shared session.
  const context = await browser.newContext({ baseURL: BASE_URL });
  const page = await context.newPage();
  const account = await createAccount(page.request, 'menu');
  for (const path of ['/spaces', '/profile']) {
    await page.goto(path);
    const nav = page.getByRole('navigation', { name: 'Account' });
    const menu = nav.getByRole('button', { name: account.name });
    await menu.click();
    await expect(nav.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    await expect(nav.getByRole('link', { name: 'All spaces' })).toHaveAttribute('href', '/spaces');
    await expect(nav.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expectNoAxeViolations(page, `${path} with the user menu open`);
    await expectNoSidewaysScroll(page, `${path} with the user menu`);
    await page.keyboard.press('Escape');
    await expect(nav.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
    await expect(menu).toBeFocused();
  }
  const nav = page.getByRole('navigation', { name: 'Account' });
  await nav.getByRole('button', { name: account.name }).click();
  await nav.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/auth/login');
  await page.goto('/spaces');
  await expect(page).toHaveURL('/auth/login?next=%2Fspaces');
  await context.close();
});
