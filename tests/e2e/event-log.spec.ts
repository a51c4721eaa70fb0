import type { Page } from '@playwright/test';
import { BASE_URL } from './base-url.ts';
import { type Account, expect, test } from './fixtures.ts';

/** A JSON log source with three events of the last half hour, sent as curl would (NDJSON, no cookie). */
async function sendEvents(page: Page, account: Account): Promise<void> {
  const headers = { origin: BASE_URL };
  const source = await page.request.post(`/api/spaces/${account.spaceId}/sources`, {
    data: { name: 'edge nginx', kind: 'json' },
    headers,
  });
  expect(source.status()).toBe(201);
  const { token } = (await source.json()) as { token: string };
  const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
  const lines = [
    {
      time: minutesAgo(3),
      ip: '2.2.2.2',
      method: 'GET',
      host: 'shop.example.test',
      path: '/search',
      status: 403,
      action: 'blocked',
      severity: 'critical',
      ruleIds: [942100, 949110],
      tags: ['attack-sqli'],
      message: 'SQL Injection Attack Detected via libinjection',
    },
    {
      time: minutesAgo(9),
      ip: '8.8.8.8',
      method: 'POST',
      host: 'shop.example.test',
      path: '/login',
      status: 403,
      action: 'blocked',
      severity: 'high',
      ruleIds: [941100],
      tags: ['attack-xss'],
      message: 'XSS Attack Detected via libinjection',
    },
    {
      time: minutesAgo(20),
      ip: '81.2.69.142',
      method: 'GET',
      host: 'api.example.test',
      path: '/v1/items',
      status: 200,
      action: 'allowed',
      severity: 'info',
    },
  ];
  // As curl would send it: NDJSON, no cookie.
  const ingest = await page.request.fetch(`/api/ingest/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', cookie: '' },
    data: lines.map((line) => JSON.stringify(line)).join('\n'),
  });
  expect(await ingest.json()).toEqual({ accepted: 3, errors: [] });
}

test('events sent to the ingest API appear in the event log: query, facet, drawer with JSON and map', async ({
  page,
  account,
}) => {
  await sendEvents(page, account);

  await page.goto(`/console/siem/${account.spaceId}`);
  await expect(page.getByRole('heading', { name: '3 events' })).toBeVisible();
  await expect(page.locator('.highcharts-container svg').first()).toBeVisible();
  const table = page.getByRole('region', { name: 'Events', exact: true });
  await expect(table.getByRole('row')).toHaveCount(4);

  // A bad query is explained under the bar, with its position, before anything is sent.
  const query = page.getByLabel('Query');
  await query.fill('status:>=abc');
  await expect(page.getByText(/at character \d+\)$/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Search' })).toBeDisabled();
  await query.fill('action:blocked');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('heading', { name: '2 events matching action:blocked' })).toBeVisible();
  await expect(page).toHaveURL(/q=action%3Ablocked/);

  // A facet click narrows the query; the facet counts agree with the API.
  const facets = (await (
    await page.request.get(`/api/spaces/${account.spaceId}/events/facets?q=action%3Ablocked`)
  ).json()) as { country: { value: string; count: number }[] };
  expect(facets.country.map((row) => row.value).sort()).toEqual(['FR', 'US']);
  await page.getByRole('region', { name: 'Country' }).getByRole('button', { name: /^FR/ }).click();
  await expect(page.getByRole('heading', { name: '1 events matching action:blocked country:FR' })).toBeVisible();

  // The drawer: raw record in the JSON viewer, the client's country on the map.
  await table.getByRole('button').first().click();
  const drawer = page.getByRole('complementary', { name: /Event / });
  await expect(drawer.getByRole('tree', { name: 'Raw record' })).toBeVisible();
  await expect(drawer.getByText('/search').first()).toBeVisible();
  await expect(drawer.locator('.leaflet-container')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
});

test('the overview draws the same counts as the API, switches chart type, and links into the event log', async ({
  page,
  account,
}) => {
  await sendEvents(page, account);
  await page.goto(`/console/${account.spaceId}`);
  await expect(page.getByText('3 events in all')).toBeVisible();
  const traffic = page.getByRole('region', { name: 'Requests and blocked requests' });
  await expect(traffic.locator('.highcharts-spline-series').first()).toBeVisible();
  await traffic.getByLabel('Chart type').selectOption('column');
  await expect(traffic.locator('.highcharts-column-series').first()).toBeVisible();
  const attacks = page.getByRole('region', { name: 'Attacks by category' });
  await expect(attacks.locator('.highcharts-column-series .highcharts-point')).toHaveCount(2);
  const map = page.getByRole('region', { name: 'Events by country' });
  await expect(map.locator('.highcharts-map-series path').first()).toBeVisible();
  const rules = page.getByRole('region', { name: 'Top rules' });
  await expect(rules.getByRole('row')).toHaveCount(4);
  await rules.getByRole('link', { name: '942100' }).click();
  await expect(page).toHaveURL(/\/console\/siem\/.+q=rule%3A942100/);
  await expect(page.getByRole('heading', { name: '1 events matching rule:942100' })).toBeVisible();
});
