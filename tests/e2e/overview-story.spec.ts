/**
 * The overview tells a story: the summary strip shows the API's numbers with their change against the
 * previous period and leads into the event log; the top rules say what each CRS rule detects; a bar of the attack
 * categories opens the event log filtered by its tag.
 */
import type { Page } from '@playwright/test';
import { expect, spaceWithEvents, test } from './fixtures.ts';

const HOUR = 3_600_000;

/**
 * A JSON log source in a new space with three events of the last half hour (two blocked: SQL injection by CRS rule
 * 942100, cross-site scripting) and one allowed event 30 hours ago, sent as curl would (NDJSON, no cookie).
 */
async function sendEvents(page: Page): Promise<string> {
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  const lines = [
    {
      time: ago(3 * 60_000),
      ip: '2.2.2.2',
      method: 'GET',
      host: 'shop.example.test',
      path: '/search',
      status: 403,
      action: 'blocked',
      severity: 'critical',
      ruleIds: [942100],
      tags: ['attack-sqli'],
    },
    {
      time: ago(9 * 60_000),
      ip: '8.8.8.8',
      method: 'POST',
      host: 'shop.example.test',
      path: '/login',
      status: 403,
      action: 'blocked',
      severity: 'high',
      ruleIds: [941100],
      tags: ['attack-xss'],
    },
    {
      time: ago(20 * 60_000),
      ip: '81.2.69.142',
      method: 'GET',
      host: 'api.example.test',
      path: '/v1/items',
      status: 200,
      action: 'allowed',
      severity: 'info',
    },
    {
      time: ago(30 * HOUR),
      ip: '81.2.69.142',
      method: 'GET',
      host: 'api.example.test',
      path: '/v1/items',
      status: 200,
      action: 'allowed',
      severity: 'info',
    },
  ];
  return spaceWithEvents(page, 'Overview story', lines);
}

test('the summary strip shows the API’s numbers with their change and leads into the event log', async ({ page }) => {
  const spaceId = await sendEvents(page);
  const summary = await page.request.get(`/api/spaces/${spaceId}/overview/summary`);
  expect(summary.status()).toBe(200);
  expect(await summary.json()).toMatchObject({
    requests: { current: 3, previous: 1 },
    blocked: { current: 2, previous: 0 },
    clientIps: { current: 3, previous: 1 },
    openAlerts: { now: 0 },
    criticalFindings: { now: 0 },
  });

  await page.goto(`/console/${spaceId}`);
  const strip = page.getByRole('region', { name: 'Summary of the last 24 h' });
  const tile = (name: string) => strip.getByRole('listitem').filter({ has: page.getByRole('link', { name }) });
  await expect(tile('Requests 3')).toContainText('up 200% vs previous 24 h');
  await expect(tile('Blocked 2')).toContainText('new: none in previous 24 h');
  await expect(tile('Block rate 66.7%')).toContainText('up 66.7 points vs previous 24 h');
  await expect(tile('Client IPs 3')).toContainText('up 200% vs previous 24 h');
  await expect(tile('Open alerts 0')).toContainText('no change vs previous 24 h');
  await expect(strip.getByRole('link', { name: 'Critical findings 0' })).toHaveAttribute(
    'href',
    `/console/vulnerabilities/assessment/${spaceId}?f.status=open&f.severity=critical`,
  );

  // The blocked count opens the event log with that filter and the overview's range.
  await strip.getByRole('link', { name: 'Blocked 2' }).click();
  await expect(page).toHaveURL(`/console/siem/${spaceId}?q=action%3Ablocked&range=24h`);
  await expect(page.getByLabel('Query')).toHaveValue('action:blocked');
  await expect(page.getByRole('heading', { name: /^2 events matching action:blocked$/ })).toBeVisible();
});

test('the top rules say what each CRS rule detects, and an attack category’s bar opens its events', async ({
  page,
}) => {
  const spaceId = await sendEvents(page);
  await page.goto(`/console/${spaceId}`);

  const rules = page.getByRole('region', { name: 'Top rules' });
  await expect(rules.getByRole('row').filter({ hasText: '942100' })).toContainText(
    'SQL Injection Attack Detected via libinjection',
  );
  await expect(rules.getByRole('row').filter({ hasText: '941100' })).toContainText(
    'XSS Attack Detected via libinjection',
  );

  // The categories by count, then name: sqli first.
  const attacks = page.getByRole('region', { name: 'Attacks by category' });
  const bars = attacks.locator('.highcharts-column-series .highcharts-point');
  await expect(bars).toHaveCount(2);
  await bars.first().click();
  await expect(page).toHaveURL(`/console/siem/${spaceId}?q=tag%3Aattack-sqli&range=24h`);
  await expect(page.getByLabel('Query')).toHaveValue('tag:attack-sqli');
  await expect(page.getByRole('heading', { name: /^1 events? matching tag:attack-sqli$/ })).toBeVisible();
});

test('in dark mode every chart sits on its card’s colour and the map’s legend reads at 4.5:1 or more', async ({
  page,
}) => {
  const spaceId = await sendEvents(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`/console/${spaceId}`);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const map = page.getByRole('region', { name: 'Events by country' });
  await expect(map.locator('.highcharts-map-series path').first()).toBeVisible();
  await expect(map.locator('.highcharts-coloraxis-labels text').first()).toBeVisible();
  const found = await page.evaluate(() => {
    const rgb = (color: string): number[] => (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const luminance = (color: string): number => {
      const [r, g, b] = rgb(color).map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
    };
    const contrast = (a: string, b: string): number => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
    };
    const charts = [...document.querySelectorAll('figure.sg-chart')].map((figure) => {
      const card = figure.closest('.card') as HTMLElement;
      const background = figure.querySelector('.highcharts-background') as SVGElement;
      return {
        label: figure.getAttribute('aria-label'),
        card: rgb(getComputedStyle(card).backgroundColor).join(','),
        chart: rgb(getComputedStyle(background).fill).join(','),
      };
    });
    const mapFigure = document.querySelector('figure[aria-label="Events by client country"]') as HTMLElement;
    const mapBackground = getComputedStyle(mapFigure.querySelector('.highcharts-background') as SVGElement).fill;
    const legend = [...mapFigure.querySelectorAll('.highcharts-coloraxis-labels text')].map((text) => ({
      text: text.textContent,
      ratio: contrast(getComputedStyle(text).fill, mapBackground),
    }));
    return { charts, legend };
  });
  expect(found.charts.length).toBeGreaterThanOrEqual(3);
  for (const chart of found.charts) expect(chart.chart, `${chart.label}: chart background`).toBe(chart.card);
  expect(found.legend.length).toBeGreaterThan(0);
  for (const label of found.legend) expect(label.ratio, `legend "${label.text}"`).toBeGreaterThanOrEqual(4.5);
});
