/**
 * Details users read as quality: the firewall page's tabs start near the top with the connector in a tab of its
 * own, and every select looks like the other fields.
 */
import type { Locator, Page } from '@playwright/test';
import { BASE_URL } from './base-url.ts';
import { expect, newSpace, test } from './fixtures.ts';
import { expectNoAxeViolations } from './page-checks.ts';

const headers = { origin: BASE_URL };

/** A new space with the firewall "shop"; answers both ids. */
async function spaceWithFirewall(page: Page, name: string): Promise<{ spaceId: string; firewallId: string }> {
  const spaceId = await newSpace(page.request, `${name} ${Date.now()}`);
  const firewall = await page.request.post(`/api/spaces/${spaceId}/firewalls`, {
    data: { name: 'shop', hostnames: ['shop.example.test'], upstream: 'http://127.0.0.1:3000', mode: 'block' },
    headers,
  });
  expect(firewall.status()).toBe(201);
  return { spaceId, firewallId: ((await firewall.json()) as { id: string }).id };
}

/**
 * A control's look (border, radius, colours, padding, text size) beside the stylesheet's field look: an `input.input`
 * added to the page for the comparison.
 */
async function looks(control: Locator): Promise<{ control: Record<string, string>; field: Record<string, string> }> {
  return control.evaluate((element) => {
    const look = (of: Element): Record<string, string> => {
      const style = getComputedStyle(of);
      return {
        borderRadius: style.borderTopLeftRadius,
        borderColor: style.borderTopColor,
        backgroundColor: style.backgroundColor,
        color: style.color,
        paddingLeft: style.paddingLeft,
        fontSize: style.fontSize,
      };
    };
    const input = document.createElement('input');
    input.className = 'input';
    document.querySelector('main')?.append(input);
    const field = look(input);
    input.remove();
    return { control: look(element), field };
  });
}

test('the firewall page shows each tab near the top, and the connector token and command in a Connect tab', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const { spaceId, firewallId } = await spaceWithFirewall(page, 'Firewall layout');
  await page.goto(`/console/firewall/config/${spaceId}/${firewallId}`);
  const tabs = page.getByRole('tablist', { name: 'Firewall settings' });
  await expect(page.getByRole('combobox', { name: 'Mode' })).toBeVisible();
  // The header and the save bar take a line each: the tab's first field sits in the upper half of the window.
  const panel = page.getByRole('tabpanel');
  const top = (await panel.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
  expect(top, 'the General tab starts this far down the page').toBeLessThan(450);

  // The connector: its own tab, with the token's prefix, the command and the rotation.
  await tabs.getByRole('tab', { name: 'Connect' }).click();
  await expect(page).toHaveURL(/[?&]tab=connect(&|$)/);
  await expect(page.getByRole('heading', { name: 'Connector token' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Run the connector' })).toContainText('npm run waf');
  await expect(page.getByRole('button', { name: 'Rotate token' })).toBeVisible();
  await expectNoAxeViolations(page, 'firewall, connect');
  // The preview keeps the generated files only.
  await tabs.getByRole('tab', { name: 'Preview' }).click();
  await expect(page.getByRole('heading', { name: 'Generated files of version 1' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Run the connector' })).toBeHidden();
});

test('the assessment filters and a widget’s chart type select look like the other fields, in both themes', async ({
  page,
}) => {
  const spaceId = await newSpace(page.request, `Selects ${Date.now()}`);
  const dashboard = await page.request.post(`/api/spaces/${spaceId}/dashboards`, {
    headers,
    data: {
      schemaVersion: 1,
      title: 'Hosts',
      timeRange: { from: 'now-24h', to: 'now' },
      refreshSeconds: 0,
      variables: [],
      widgets: [
        {
          id: 'hosts',
          title: 'By host',
          type: 'bar',
          gridPos: { x: 0, y: 0, w: 12, h: 8 },
          query: { metric: 'count', groupBy: { kind: 'field', field: 'host' }, filter: '' },
        },
      ],
    },
  });
  expect(dashboard.status()).toBe(201);
  const dashboardId = ((await dashboard.json()) as { id: string }).id;

  for (const theme of ['light', 'dark'] as const) {
    await page.addInitScript((mode) => localStorage.setItem('spaceguard:color-mode', mode), theme);
    await page.goto(`/console/vulnerabilities/assessment/${spaceId}`);
    const filters = page.getByRole('search', { name: 'Filter findings' });
    await expect(filters.getByRole('combobox', { name: 'Status' })).toBeVisible();
    for (const name of ['Status', 'Severity', 'Ecosystem']) {
      const { control, field } = await looks(filters.getByRole('combobox', { name }));
      expect(control, `${theme}: the ${name} filter`).toEqual(field);
    }
    const search = await looks(filters.getByRole('searchbox', { name: 'Search' }));
    expect(search.control, `${theme}: the search box`).toEqual(search.field);

    await page.goto(`/console/dashboard/explore/${spaceId}/${dashboardId}`);
    const type = page.getByRole('combobox', { name: 'Chart type of By host' });
    await expect(type).toBeVisible();
    const widget = await looks(type);
    expect(widget.control, `${theme}: the widget's chart type`).toEqual(widget.field);
  }
});
