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

test('in the event log, a range picked while the bar holds a query that does not parse searches the query shown before, and the bar says where it fails', async ({
  page,
}) => {
  const spaceId = await sendEvents(page);
  await page.goto(`/console/siem/${spaceId}?q=action%3Ablocked`);
  await expect(page.getByRole('heading', { name: '2 events matching action:blocked' })).toBeVisible();

  const query = page.getByLabel('Query');
  await query.fill('status:>=abc');
  await expect(query).toHaveAttribute('aria-invalid', 'true');
  await expect(query).toHaveAccessibleDescription(/\(at character \d+\)$/);
  await expect(page.getByRole('button', { name: 'Search', exact: true })).toBeDisabled();

  await page.getByRole('combobox', { name: 'Time range' }).selectOption('1h');
  await expect(page).toHaveURL(/q=action%3Ablocked&range=1h/);
  await expect(page.getByRole('heading', { name: '2 events matching action:blocked' })).toBeVisible();
  // What was typed stays in the bar, to be corrected.
  await expect(query).toHaveValue('status:>=abc');
});

test('in the event log at 1440 px the query, its range and Search sit on one line inside the bar, the query the widest', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const spaceId = await sendEvents(page);
  await page.goto(`/console/siem/${spaceId}`);
  await expect(page.getByRole('heading', { name: '3 events' })).toBeVisible();
  const bar = await page.getByRole('form', { name: 'Search events' }).boundingBox();
  const query = await page.getByLabel('Query').boundingBox();
  const range = await page.getByRole('combobox', { name: 'Time range' }).boundingBox();
  const search = await page.getByRole('button', { name: 'Search', exact: true }).boundingBox();
  if (!bar || !query || !range || !search) throw new Error('the bar is not laid out');
  for (const box of [query, range, search]) {
    expect(box.x).toBeGreaterThanOrEqual(bar.x);
    expect(box.x + box.width).toBeLessThanOrEqual(bar.x + bar.width);
    expect(Math.abs(box.y + box.height / 2 - (query.y + query.height / 2))).toBeLessThan(4);
  }
  expect(query.width).toBeGreaterThan(range.width * 3);
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
