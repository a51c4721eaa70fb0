/**
 * The event log answers at a glance: on a wide screen the rows name the client's country and each
 * rule's CRS message; the drawer filters for or excludes a value, copies the event as JSON, links to itself, and
 * sits below the console's header.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, sendEvents, test } from './fixtures.ts';

test.use({ viewport: { width: 1440, height: 900 } });

/** The id of the event sent with path /search (2.2.2.2, France; rules 942100 and 949110), asked of the API. */
async function searchEventId(page: Page, spaceId: string): Promise<string> {
  const answer = await page.request.get(`/api/spaces/${spaceId}/events?q=${encodeURIComponent('path:/search')}`);
  const { items } = (await answer.json()) as { items: { id: string }[] };
  expect(items).toHaveLength(1);
  return (items[0] as { id: string }).id;
}

/** Opens the drawer of the table's row whose request contains `path`. */
async function openRow(page: Page, path: string): Promise<Locator> {
  const table = page.getByRole('region', { name: 'Events, scrollable' });
  await table.getByRole('row').filter({ hasText: path }).getByRole('button').first().click();
  const drawer = page.getByRole('complementary', { name: /^Event / });
  await expect(drawer).toBeVisible();
  return drawer;
}

test('the rows show the country’s name and the rule’s message; the drawer sits below the header, copies JSON and links to itself', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const spaceId = await sendEvents(page);
  const id = await searchEventId(page, spaceId);
  await page.goto(`/console/siem/${spaceId}`);
  await expect(page.getByRole('heading', { name: '3 events' })).toBeVisible();

  // At a glance: the client's country by name next to its IP, each rule id with its CRS message.
  const table = page.getByRole('region', { name: 'Events, scrollable' });
  const row = table.getByRole('row').filter({ hasText: '/search' });
  await expect(row.getByRole('cell').nth(3)).toContainText('2.2.2.2');
  await expect(row.getByRole('cell').nth(3)).toContainText('France');
  // Its flag, served by the site itself, drawn (not a broken image).
  const flag = row.getByRole('cell').nth(3).locator('img.country-chip__flag');
  await expect(flag).toHaveAttribute('src', '/flags/fr.svg');
  await expect.poll(() => flag.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(row).toContainText('942100 SQL Injection Attack Detected via libinjection');
  await expect(row.getByRole('cell').nth(4)).toHaveAttribute('title', 'GET shop.example.test/search');
  await expect(table.getByRole('row').filter({ hasText: '/login' })).toContainText('United States');

  const drawer = await openRow(page, '/search');
  await expect(drawer.getByRole('heading', { name: `Event ${id.slice(0, 8)}` })).toBeVisible();
  await expect(drawer.getByText('942100 SQL Injection Attack Detected via libinjection')).toBeVisible();

  // The drawer does not cover the console's header.
  await page.evaluate(() => window.scrollTo(0, 0));
  const header = await page.locator('header.topbar').boundingBox();
  const panel = await drawer.boundingBox();
  if (!header || !panel) throw new Error('no header or drawer box');
  expect(panel.y).toBeGreaterThanOrEqual(header.y + header.height - 0.5);
  await expect(page.locator('header.topbar').getByRole('navigation', { name: 'Account' })).toBeVisible();

  // Copy JSON, once the raw record is in: the event with its id and its raw record.
  await expect(drawer.getByRole('tree', { name: 'Raw record' })).toBeVisible();
  await drawer.getByRole('button', { name: 'Copy JSON' }).click();
  await expect(drawer.getByText('Copied!')).toBeVisible();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
    id: string;
    path: string;
    raw: unknown;
  };
  expect(copied.id).toBe(id);
  expect(copied.path).toBe('/search');
  expect(JSON.stringify(copied.raw)).toContain('/search');

  // The permalink: the event log in the current view with this event's drawer open.
  const link = drawer.getByRole('link', { name: 'Permalink' });
  const href = await link.getAttribute('href');
  expect(href).toContain(`event=${id}`);
  await drawer.getByRole('button', { name: 'Copy link' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(new URL(href as string, page.url()).href);
  await page.goto(`/spaces`);
  await page.goto(href as string);
  const opened = page.getByRole('complementary', { name: /^Event / });
  await expect(opened.getByRole('heading', { name: `Event ${id.slice(0, 8)}` })).toBeVisible();
  await expect(opened.getByText('GET shop.example.test/search')).toBeVisible();
  await expect(page.getByRole('heading', { name: '3 events' })).toBeVisible();
});

test('Exclude narrows the query to -country:FR and Filter for adds rule:942100, with the results to match', async ({
  page,
}) => {
  const spaceId = await sendEvents(page);
  await page.goto(`/console/siem/${spaceId}`);
  await expect(page.getByRole('heading', { name: '3 events' })).toBeVisible();
  const table = page.getByRole('region', { name: 'Events, scrollable' });

  // Exclude the client's country: the two other events remain.
  let drawer = await openRow(page, '/search');
  await drawer.getByRole('button', { name: 'Exclude country France (FR)' }).click();
  await expect(page.getByLabel('Query')).toHaveValue('-country:FR');
  await expect(page).toHaveURL(/q=-country%3AFR/);
  await expect(page.getByRole('heading', { name: '2 events matching -country:FR' })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: '/search' })).toHaveCount(0);
  await expect(table.getByRole('row').filter({ hasText: '/login' })).toHaveCount(1);

  // From the whole log again, filter for one of the event's rules: only that event remains.
  await page.goto(`/console/siem/${spaceId}`);
  await expect(page.getByRole('heading', { name: '3 events' })).toBeVisible();
  drawer = await openRow(page, '/search');
  await drawer.getByRole('button', { name: 'Filter for rule 942100' }).click();
  await expect(page.getByLabel('Query')).toHaveValue('rule:942100');
  await expect(page).toHaveURL(/q=rule%3A942100/);
  await expect(page.getByRole('heading', { name: '1 events matching rule:942100' })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: '/search' })).toHaveCount(1);
  await expect(table.getByRole('row').filter({ hasText: '/login' })).toHaveCount(0);
});
