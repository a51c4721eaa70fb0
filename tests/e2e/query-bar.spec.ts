/**
 * The query bar is what every control applies: after typing a query, picking a time range, a facet, a grouping, an
 * order or Refresh searches the text the bar shows, never the query searched before it, in the event log and in WAF
 * discover alike.
 */
import { expect, sendEvents, test } from './fixtures.ts';

test('in the event log, a new time range and a facet search the text typed in the bar', async ({ page }) => {
  const spaceId = await sendEvents(page);
  await page.goto(`/console/siem/${spaceId}?q=tag%3Aattack-sqli`);
  await expect(page.getByRole('heading', { name: '1 events matching tag:attack-sqli' })).toBeVisible();

  // Typed, not submitted: the range select applies it.
  await page.getByLabel('Query').fill('action:blocked');
  await page.getByRole('combobox', { name: 'Time range' }).selectOption('7d');
  await expect(page.getByRole('heading', { name: '2 events matching action:blocked' })).toBeVisible();
  await expect(page).toHaveURL(/q=action%3Ablocked&range=7d/);

  // A facet adds its term to the typed text.
  await page.getByLabel('Query').fill('-host:api.example.test');
  await page.getByRole('region', { name: 'Country' }).getByRole('button', { name: /^FR/ }).click();
  await expect(page.getByLabel('Query')).toHaveValue('-host:api.example.test country:FR');
  await expect(
    page.getByRole('heading', { name: '1 events matching -host:api.example.test country:FR' }),
  ).toBeVisible();
});

test('in WAF discover, grouping, scope, order and Refresh search the text typed in the bar', async ({ page }) => {
  const spaceId = await sendEvents(page);
  await page.goto(`/console/alerts/waf/discover/${spaceId}?q=tag%3Aattack-sqli`);
  await expect(page.getByRole('heading', { name: '1 events in 1 groups' })).toBeVisible();

  await page.getByLabel('Query').fill('action:blocked');
  await page.getByRole('combobox', { name: 'Group by' }).selectOption('rule');
  await expect(page.getByRole('heading', { name: '2 events in 3 groups' })).toBeVisible();
  await expect(page).toHaveURL(/q=action%3Ablocked/);

  await page.getByLabel('Query').fill('host:shop.example.test');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page).toHaveURL(/q=host%3Ashop\.example\.test/);
  await expect(page.getByRole('heading', { name: '2 events in 3 groups' })).toBeVisible();

  await page.getByLabel('Query').fill('severity:critical');
  await page.getByRole('button', { name: 'Blocked' }).click();
  await expect(page.getByRole('heading', { name: '1 events in 2 groups' })).toBeVisible();
  await expect(page).toHaveURL(/q=severity%3Acritical/);
});
