import { expect, test } from './fixtures.ts';

test('a changed build id offers a reload after the hourly poll', async ({ page }) => {
  await page.clock.install();
  await page.goto('/spaces');
  const current = await page.request.get('/_build/latest.json').then((response) => response.json());
  expect(typeof current.id).toBe('string');
  await page.clock.runFor('59:00');
  await expect(page.getByRole('status')).toHaveCount(0);

  // A new deploy: the latest id changes and its manifest is published.
  await page.route('**/_build/latest.json', (route) => route.fulfill({ json: { id: 'next-build' } }));
  await page.route('**/_build/meta/next-build.json', (route) => route.fulfill({ json: { id: 'next-build' } }));
  await page.clock.runFor('01:00');
  const offer = page.getByRole('status');
  await expect(offer).toContainText('A new version of Spaceguard is available.');
  const reloaded = page.waitForEvent('load');
  await offer.getByRole('button', { name: 'Reload' }).click();
  await reloaded;
  await expect(page.getByRole('status')).toHaveCount(0);
});

test('the same build id offers nothing', async ({ page }) => {
  await page.clock.install();
  await page.goto('/spaces');
  await page.clock.runFor('02:00:00');
  await expect(page.getByText('A new version of Spaceguard is available.')).toHaveCount(0);
});
