import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { BASE_URL } from './base-url.ts';
import { expect, newSpace, sendEvents, test } from './fixtures.ts';
import { nextFrames, requestsSeen } from './page-checks.ts';

test('events sent to the ingest API appear in the event log: query, facet, drawer with fields, JSON (after a failed fetch and Retry) and map', async ({
  page,
}) => {
  const spaceId = await sendEvents(page);

  await page.goto(`/console/siem/${spaceId}`);
  await expect(page.getByRole('heading', { name: '3 events' })).toBeVisible();
  await expect(page.locator('.highcharts-container svg').first()).toBeVisible();
  const table = page.getByRole('region', { name: 'Events', exact: true });
  await expect(table.getByRole('row')).toHaveCount(4);

  // A bad query is explained under the bar, with its position, before anything is sent.
  const query = page.getByLabel('Query');
  await query.fill('status:>=abc');
  await expect(page.getByText(/at character \d+\)$/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Search', exact: true })).toBeDisabled();
  await query.fill('action:blocked');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('heading', { name: '2 events matching action:blocked' })).toBeVisible();
  await expect(page).toHaveURL(/q=action%3Ablocked/);

  // A facet click narrows the query; the facet counts agree with the API.
  const facets = (await (await page.request.get(`/api/spaces/${spaceId}/events/facets?q=action%3Ablocked`)).json()) as {
    country: { value: string; count: number }[];
  };
  expect(facets.country.map((row) => row.value).sort()).toEqual(['FR', 'US']);
  await page.getByRole('region', { name: 'Country' }).getByRole('button', { name: /^FR/ }).click();
  await expect(page.getByRole('heading', { name: '1 events matching action:blocked country:FR' })).toBeVisible();

  // The drawer: the row's fields at once, the client's country on the map, and the raw record (not in the page's
  // rows) fetched into the JSON viewer. Its first fetch fails here: the drawer says so, and Retry asks again.
  const detail = (url: URL) => /\/api\/spaces\/[^/]+\/events\/[0-9a-f-]{36}$/.test(url.pathname);
  let failures = 1;
  await page.route(detail, async (route) => {
    if (failures-- <= 0) return route.fallback();
    const error = { code: 'unavailable', message: 'The event store is busy; try again in a moment.' };
    return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error }) });
  });
  await table.getByRole('region', { name: 'Events, scrollable' }).getByRole('button').first().click();
  const drawer = page.getByRole('complementary', { name: /Event / });
  // Exact: the rules list shows the same words after the rule id.
  await expect(drawer.getByText('SQL Injection Attack Detected via libinjection', { exact: true })).toBeVisible();
  await expect(drawer.getByText('GET shop.example.test/search')).toBeVisible();
  const alert = drawer.getByRole('alert');
  await expect(alert).toHaveText(
    /The raw record could not be loaded: The event store is busy; try again in a moment\./,
  );
  await expect(drawer.getByRole('tree')).toHaveCount(0);
  expect((await new AxeBuilder({ page }).include('.event-drawer').analyze()).violations).toEqual([]);
  await alert.getByRole('button', { name: 'Retry' }).focus();
  await page.keyboard.press('Enter');
  await expect(drawer.getByRole('tree', { name: 'Raw record' })).toBeVisible();
  await expect(drawer.getByRole('tree', { name: 'Raw record' }).getByText('/search').first()).toBeVisible();
  await expect(alert).toHaveCount(0);
  await expect(drawer.locator('.leaflet-container')).toBeVisible();
  expect((await new AxeBuilder({ page }).include('.event-drawer').analyze()).violations).toEqual([]);
  await page.unroute(detail);
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
});

test('the overview draws the same counts as the API, switches chart type, and links into the event log', async ({
  page,
}) => {
  const spaceId = await sendEvents(page);
  await page.goto(`/console/${spaceId}`);
  await expect(page.getByText('3 events in all')).toBeVisible();
  // This month's usage against the Free plan's quota, as the ingest counted it.
  const usage = page.getByRole('region', { name: 'Events this month' });
  await expect(usage.getByText(/^3 of 100,000 events on the Free plan \(0%\)\.$/)).toBeVisible();
  await expect(usage.getByText('No events refused this month.')).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  const traffic = page.getByRole('region', { name: 'Requests and blocked requests' });
  await expect(traffic.locator('.highcharts-spline-series').first()).toBeVisible();
  await traffic.getByLabel('Chart type').selectOption('column');
  await expect(traffic.locator('.highcharts-column-series').first()).toBeVisible();
  const attacks = page.getByRole('region', { name: 'Attacks by category' });
  await expect(attacks.locator('.highcharts-column-series .highcharts-point')).toHaveCount(2);
  const map = page.getByRole('region', { name: 'Events by country' });
  await expect(map.locator('.highcharts-map-series path').first()).toBeVisible();
  // The rules that detected something, not the anomaly verdict (949110) every blocked request carries.
  const rules = page.getByRole('region', { name: 'Top rules' });
  await expect(rules.getByRole('row')).toHaveCount(3);
  await expect(rules.getByRole('link', { name: '941100' })).toBeVisible();
  await expect(rules.getByRole('link', { name: '949110' })).toHaveCount(0);
  await rules.getByRole('link', { name: '942100' }).click();
  await expect(page).toHaveURL(/\/console\/siem\/.+q=rule%3A942100/);
  await expect(page.getByRole('heading', { name: '1 events matching rule:942100' })).toBeVisible();
});

test('the table scrolls through every match by cursor with few rows in the page, and the navigator zooms the range', async ({
  page,
}) => {
  const spaceId = await newSpace(page.request, 'Busy event log');
  const source = await page.request.post(`/api/spaces/${spaceId}/sources`, {
    data: { name: 'busy edge', kind: 'json' },
    headers: { origin: BASE_URL },
  });
  const { token } = (await source.json()) as { token: string };
  // 1 500 events, one every 50 seconds back from now (about 21 hours), in two batches.
  const now = Date.now();
  const lines = Array.from({ length: 1_500 }, (_, i) =>
    JSON.stringify({
      time: new Date(now - 60_000 - i * 50_000).toISOString(),
      ip: '8.8.8.8',
      method: 'GET',
      host: 'busy.example.test',
      path: `/item/${i}`,
      status: i % 4 === 0 ? 403 : 200,
      action: i % 4 === 0 ? 'blocked' : 'allowed',
    }),
  );
  for (const batch of [lines.slice(0, 1_000), lines.slice(1_000)]) {
    const answer = await page.request.fetch(`/api/ingest/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', cookie: '' },
      data: batch.join('\n'),
    });
    expect(((await answer.json()) as { accepted: number }).accepted).toBe(batch.length);
  }

  await page.goto(`/console/siem/${spaceId}`);
  await expect(page.getByRole('heading', { name: '1500 events' })).toBeVisible();
  const status = page.getByText(/events loaded/);
  await expect(status).toHaveText('500 of 1,500 events loaded; scroll for more.');
  const scroller = page.getByRole('region', { name: 'Events, scrollable' });
  // Scroll to the end until every page has arrived.
  await expect(async () => {
    await scroller.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await expect(status).toHaveText('1,500 of 1,500 events loaded.', { timeout: 1_000 });
  }).toPass();
  // The oldest event is at the very end, and only a window of rows is in the document.
  await scroller.evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await expect(scroller.getByRole('cell', { name: 'GET busy.example.test/item/1499' })).toBeVisible();
  expect(await scroller.locator('tbody tr[aria-rowindex]').count()).toBeLessThan(100);
  // Keyboard: the region takes focus and scrolls with the keys.
  await scroller.focus();
  await page.keyboard.press('Home');
  await expect(scroller.getByRole('cell', { name: 'GET busy.example.test/item/0', exact: true })).toBeVisible();

  // Dragging the navigator's left handle narrows the range: the URL takes absolute times, fewer events match.
  const handle = page.locator('.highcharts-navigator-handle-left');
  await handle.scrollIntoViewIfNeeded();
  const box = await handle.boundingBox();
  if (!box) throw new Error('no navigator handle');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 400, box.y + box.height / 2, { steps: 10 });
  await page.mouse.up();
  await expect(page).toHaveURL(/from=.+&to=|to=.+&from=/);
  await expect(page.getByLabel('Time range')).toHaveValue('custom');
  const heading = page.getByRole('heading', { name: /^\d+ events$/ });
  await expect(heading).not.toHaveText('1500 events');
  // The count shown is the API's count for the range now in the URL.
  await expect(async () => {
    const url = new URL(page.url());
    const range = new URLSearchParams({
      from: url.searchParams.get('from') ?? '',
      to: url.searchParams.get('to') ?? '',
    });
    const api = (await (await page.request.get(`/api/spaces/${spaceId}/events/facets?${range}`)).json()) as {
      total: number;
    };
    expect(api.total).toBeGreaterThan(0);
    expect(api.total).toBeLessThan(1_500);
    await expect(heading).toHaveText(`${api.total} events`, { timeout: 1_000 });
  }).toPass();
  const settled = page.url();
  // Whatever the page had asked for has been answered and rendered: the URL still says the same.
  await requestsSeen(page);
  await nextFrames(page);
  expect(page.url()).toBe(settled);
});

test('a search is saved and applied again, and the result exports as CSV and NDJSON downloads', async ({ page }) => {
  const spaceId = await sendEvents(page);
  await page.goto(`/console/siem/${spaceId}?q=action%3Ablocked&range=7d`);
  await expect(page.getByRole('heading', { name: '2 events matching action:blocked' })).toBeVisible();

  const saved = page.getByRole('region', { name: 'Saved searches' });
  await saved.getByLabel('Name').fill('Blocked this week');
  await saved.getByRole('button', { name: 'Save search' }).click();
  await expect(saved.getByText('Saved “Blocked this week”.')).toBeVisible();

  // A fresh visit with no query; the saved search brings back its query and range.
  await page.goto(`/console/siem/${spaceId}`);
  await expect(page.getByRole('heading', { name: '3 events' })).toBeVisible();
  await saved.getByRole('button', { name: /^Blocked this week/ }).click();
  await expect(page.getByRole('heading', { name: '2 events matching action:blocked' })).toBeVisible();
  await expect(page).toHaveURL(/q=action%3Ablocked/);
  await expect(page).toHaveURL(/range=7d/);
  await expect(page.getByLabel('Query')).toHaveValue('action:blocked');

  // Export: the file holds exactly the events the screen counts.
  const table = page.getByRole('region', { name: 'Events', exact: true });
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    table.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
  const csvText = await (await csv.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString());
  const csvLines = csvText.trim().split(/\r?\n/);
  expect(csvLines).toHaveLength(3);
  expect(csvLines[0]).toMatch(/^time,/);
  expect(csvText).toContain('/search');
  expect(csvText).not.toContain('/v1/items');
  await expect(table.getByText(/^Saved spaceguard-events-.+\.csv: 2 events\.$/)).toBeVisible();

  const [ndjson] = await Promise.all([
    page.waitForEvent('download'),
    table.getByRole('button', { name: 'Export NDJSON' }).click(),
  ]);
  expect(ndjson.suggestedFilename()).toMatch(/\.ndjson$/);
  const lines = (await (await ndjson.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString()))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { action: string; path: string });
  expect(lines.map((line) => line.action)).toEqual(['blocked', 'blocked']);
  expect(lines.map((line) => line.path).sort()).toEqual(['/login', '/search']);

  // Deleting the saved search removes it from the list.
  await saved.getByRole('button', { name: 'Delete saved search Blocked this week' }).click();
  await expect(saved.getByRole('button', { name: /Blocked this week/ })).toHaveCount(0);
  await expect(saved.getByText('Deleted “Blocked this week”.')).toBeVisible();
});

test('an audit log written by a real nginx + ModSecurity + CRS, shipped as curl would, shows in the event log', async ({
  page,
}) => {
  const spaceId = await newSpace(page.request, 'Real WAF');
  const source = await page.request.post(`/api/spaces/${spaceId}/sources`, {
    data: { name: 'nginx modsecurity', kind: 'modsecurity' },
    headers: { origin: BASE_URL },
  });
  const { token } = (await source.json()) as { token: string };
  // The records nginx 1.22 + libmodsecurity3 + CRS 3.3.4 wrote (server/services/ingest/fixtures/generate.sh).
  const log = readFileSync('server/services/ingest/fixtures/audit.ndjson', 'utf8');
  const records = log.trim().split('\n').length;
  const ingest = await page.request.fetch(`/api/ingest/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', cookie: '' },
    data: log,
  });
  expect(await ingest.json()).toEqual({ accepted: records, errors: [] });

  // The records keep the time nginx wrote, so look over everything up to now.
  const range = new URLSearchParams({ from: '2020-01-01T00:00:00.000Z', to: new Date().toISOString() });
  await page.goto(`/console/siem/${spaceId}?${range}`);
  await expect(page.getByRole('heading', { name: `${records} events` })).toBeVisible();
  const rules = page.getByRole('region', { name: 'Rule' });
  await expect(rules.getByRole('button', { name: /^942100\b/ })).toBeVisible();
  await expect(rules.getByRole('button', { name: /^941100\b/ })).toBeVisible();
  await page.getByLabel('Query').fill('tag:attack-xss');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('heading', { name: '1 events matching tag:attack-xss' })).toBeVisible();
  const table = page.getByRole('region', { name: 'Events, scrollable' });
  await expect(table.getByRole('cell', { name: /\/search\?q=%3Cscript%3E/ })).toBeVisible();
  await expect(table.getByText('blocked', { exact: true })).toBeVisible();
});
