import { expect, test } from './fixtures.ts';

const DESCRIPTION = [
  '# Shop front',
  '',
  '| host | upstream |',
  '|---|---|',
  '| shop.example.test | 10.0.0.5:8080 |',
  '',
  '- [x] firewall in detect mode',
  '- [ ] switch to block',
  '',
  'Runbook: https://runbooks.example.test/shop :smile: <script>window.pwned = true</script>',
].join('\n');

test('Markdown preview of a space description: GFM table and task list, safe links, no raw HTML', async ({
  page,
  account,
}) => {
  await page.goto(`/console/management/general/${account.spaceId}`);
  await page.getByRole('textbox', { name: 'Description' }).fill(DESCRIPTION);
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.locator('.sg-description-preview');
  await expect(preview.getByRole('table')).toContainText('shop.example.test');
  await expect(preview.getByRole('checkbox')).toHaveCount(2);
  const link = preview.getByRole('link', { name: 'https://runbooks.example.test/shop' });
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(preview).toContainText(':smile:');
  expect(await preview.locator('script').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned)).toBeUndefined();

  // Saved, it is there after a reload.
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Description' })).toHaveValue(DESCRIPTION);
});

test('the JSON viewer copies a change to the real clipboard and confirms it', async ({ page, context, account }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // A change to record: rename the space on its settings page.
  await page.goto(`/console/management/general/${account.spaceId}`);
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Renamed for the clipboard');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();

  await page.goto(`/console/management/activity/${account.spaceId}`);
  await page.getByRole('button', { name: 'Show the change of space.update' }).first().click();
  const tree = page.getByRole('tree').first();
  await expect(tree).toBeVisible();
  await tree
    .getByRole('button', { name: /^Copy .* as JSON$/ })
    .first()
    .click();
  await expect(tree.getByText('Copied!')).toBeVisible();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  const api = await (await page.request.get(`/api/spaces/${account.spaceId}/activity?action=space.update`)).json();
  expect(copied).toEqual(api.items[0].change);
  await expect(tree.getByText('Copied!')).toHaveCount(0, { timeout: 4000 });
});
