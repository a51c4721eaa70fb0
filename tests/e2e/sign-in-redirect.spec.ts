import { expect, test } from './fixtures.ts';

// Signed out, with the worker's account to sign in with.
test.use({ storageState: { cookies: [], origins: [] } });

// `next` as it stands in the address bar: the page decodes it, and the URL parser drops tabs and dot segments.
const OFF_SITE = ['/%09/evil.test/', '/.//evil.test/', '//evil.test/', '/%5Cevil.test/'];

for (const next of OFF_SITE) {
  test(`sign-in with next=${next} stays on the site`, async ({ page, account }) => {
    const left: string[] = [];
    await page.route(
      (url) => url.hostname === 'evil.test',
      (route) => {
        left.push(route.request().url());
        return route.fulfill({ contentType: 'text/html', body: '<h1>Elsewhere</h1>' });
      },
    );
    await page.goto(`/auth/login?next=${next}`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The landing page opens the last used space, or the list of spaces.
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/(console\/|spaces$)/);
    expect(left).toEqual([]);
  });
}

test('sign-in with a same-site next goes there', async ({ page, account }) => {
  await page.goto('/auth/login?next=%2Fprofile%3Ftab%3Dtokens');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL('/profile?tab=tokens');
});
