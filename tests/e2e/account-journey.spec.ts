import { expect, test } from '@playwright/test';
import { mailedLink } from './fixtures.ts';

const PASSWORD = 'Nebula-watch-2026';

test('register, activate from the mail, sign in, create a space, then forgot → reset ends the old session', async ({
  page,
  browser,
}) => {
  const email = `journey-${Date.now()}@example.test`;

  // Register: the strength meter judges as the API does, then "check your mail".
  await page.goto('/auth/register');
  await page.getByLabel('Name').fill('Ada Journey');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Use at least 10 characters.').first()).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your mail' })).toBeVisible();

  // Activation link from the development outbox.
  const activation = await mailedLink(page.request, email, '/auth/activation/');
  await page.goto(activation);
  await expect(page.getByText('Your account is active.')).toBeVisible();
  // The link is single use.
  await page.goto(activation);
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send a new activation link' })).toBeVisible();

  // Sign in: a wrong password is refused inline, the typed address stays.
  await page.goto('/auth/login?next=/spaces');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Wrong email or password.')).toBeVisible();
  await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL('/spaces');
  await expect(page.getByText('You have no space yet.')).toBeVisible();

  // Create a space: it opens its console, whose menu shows the user.
  await page.getByLabel('Space name').fill('Orbital Shop');
  await page.getByRole('button', { name: 'Create space' }).click();
  await expect(page).toHaveURL(/\/console\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('button', { name: 'Ada Journey' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Space' })).toHaveValue(/[0-9a-f-]{36}/);
  await page.goto('/spaces');
  await expect(page.getByRole('link', { name: 'Orbital Shop' })).toBeVisible();

  // Forgot → reset from another browser: the first session ends.
  const other = await browser.newContext();
  const resetPage = await other.newPage();
  await resetPage.goto('/auth/forgot');
  await resetPage.getByLabel('Email').fill(email);
  await resetPage.getByRole('button', { name: 'Send me a reset link' }).click();
  await expect(resetPage.getByRole('status')).toBeVisible();
  const reset = await mailedLink(resetPage.request, email, '/auth/reset/');
  await resetPage.goto(reset);
  await resetPage.getByLabel('Password', { exact: true }).fill('Comet-trail-2027');
  await resetPage.getByLabel('Repeat the password').fill('Comet-trail-2028');
  await resetPage.getByRole('button', { name: 'Change password' }).click();
  await expect(resetPage.getByText('The two passwords are not the same.')).toBeVisible();
  await resetPage.getByLabel('Repeat the password').fill('Comet-trail-2027');
  await resetPage.getByRole('button', { name: 'Change password' }).click();
  await expect(resetPage.getByText('every other session is signed out')).toBeVisible();
  await other.close();

  // The old session is gone: a console page sends the visitor to sign in, and back after.
  await page.goto('/profile');
  await expect(page).toHaveURL('/auth/login?next=%2Fprofile');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('Comet-trail-2027');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL('/profile');
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});

test('the colour mode chosen on the profile follows the user to a new device', async ({ page, browser }) => {
  const { createAccount } = await import('./fixtures.ts');
  const account = await createAccount(page.request, 'mode');
  await page.goto('/profile');
  // The profile's own setting, not the top bar's toggle (whose radios have the same names).
  await page.getByRole('region', { name: 'Colour mode' }).getByRole('radio', { name: 'Dark', exact: true }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(async () => (await (await page.request.get('/api/me')).json()).colorMode).toBe('dark');

  const device = await browser.newContext();
  const fresh = await device.newPage();
  await fresh.goto('/auth/login');
  await fresh.getByLabel('Email').fill(account.email);
  await fresh.getByLabel('Password').fill(account.password);
  await fresh.getByRole('button', { name: 'Sign in' }).click();
  await expect(fresh).toHaveURL(/\/console\//);
  await expect(fresh.locator('html')).toHaveAttribute('data-theme', 'dark');
  await device.close();
});
