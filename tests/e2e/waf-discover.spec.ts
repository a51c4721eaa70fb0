import type { Page } from '@playwright/test';
import { BASE_URL } from './base-url.ts';
import { expect, newSpace, test } from './fixtures.ts';
import { expectNoAxeViolations, sidewaysAt375 } from './page-checks.ts';

const headers = { origin: BASE_URL };
const attacker = '203.0.113.7';

/** A new space with the firewall "shop" and WAF events of the last hour from two addresses, sent as curl would. */
async function spaceWithWafEvents(page: Page): Promise<{ spaceId: string; firewallId: string }> {
  const spaceId = await newSpace(page.request, `WAF discover ${Date.now()}`);
  const firewall = await page.request.post(`/api/spaces/${spaceId}/firewalls`, {
    data: { name: 'shop', hostnames: ['shop.example.com'], upstream: 'http://127.0.0.1:3000', mode: 'block' },
    headers,
  });
  expect(firewall.status()).toBe(201);
  const firewallId = ((await firewall.json()) as { id: string }).id;
  const source = await page.request.post(`/api/spaces/${spaceId}/sources`, {
    data: { name: 'edge', kind: 'json' },
    headers,
  });
  const { token } = (await source.json()) as { token: string };
  const event = (minutes: number, ip: string, path: string, ruleIds: number[], action: string) =>
    JSON.stringify({
      time: new Date(Date.now() - minutes * 60_000).toISOString(),
      ip,
      method: 'GET',
      host: 'shop.example.com',
      path,
      status: action === 'blocked' ? 403 : 200,
      action,
      severity: 'critical',
      ruleIds,
      tags: ['attack-sqli'],
      message: 'SQL Injection Attack Detected via libinjection',
      firewallId,
    });
  const lines = [
    event(2, attacker, "/search?q=' or 1=1", [942100, 949110], 'blocked'),
    event(12, attacker, '/search?q=union select', [942100, 949110], 'blocked'),
    event(22, attacker, '/search?q=sleep(5)', [942100, 949110], 'blocked'),
    event(32, attacker, '/search?q=1--', [942100], 'logged'),
    event(42, '198.51.100.23', '/login', [930120], 'logged'),
  ];
  const ingest = await page.request.fetch(`/api/ingest/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', cookie: '' },
    data: lines.join('\n'),
  });
  expect(await ingest.json()).toEqual({ accepted: 5, errors: [] });
  return { spaceId, firewallId };
}

test('discover shows the groups with sparklines, blocks an IP after its preview, and the firewall has the expiring entry', async ({
  page,
}) => {
  test.slow();
  const { spaceId, firewallId } = await spaceWithWafEvents(page);
  await page.goto(`/console/alerts/waf/discover/${spaceId}`);
  const table = page.getByRole('table', { name: 'Groups' });
  await expect(page.getByRole('heading', { name: '5 events in 2 groups' })).toBeVisible();
  const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: attacker }) });
  await expect(row.getByRole('cell').nth(0)).toHaveText('4');
  await expect(row.getByRole('cell').nth(1)).toHaveText('3');
  await expect(
    row.getByRole('img', { name: new RegExp(`^Events of ${attacker.replaceAll('.', '\\.')} from`) }),
  ).toBeVisible();
  await expect(table.getByRole('img')).toHaveCount(2);
  await expectNoAxeViolations(page, 'discover');

  // Group by path, kept in the URL: the query string is not part of the group.
  await page.getByRole('combobox', { name: 'Group by' }).selectOption('path');
  await expect(table.getByRole('rowheader', { name: '/search' })).toBeVisible();
  await expect(page).toHaveURL(/groupBy=path/);
  await page.getByRole('combobox', { name: 'Group by' }).selectOption('ip');
  await expect(table.getByRole('rowheader', { name: attacker })).toBeVisible();

  // Block the attacker by keyboard: the preview counts its requests and shows the diff, then Apply.
  const block = row.getByRole('button', { name: `Block IP ${attacker}` });
  await block.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Block an IP address' });
  await expect(dialog.getByText('Would have affected 4 requests from 1 IP in the last 7 days.')).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Block for' }).selectOption('60');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(
    dialog.getByText(new RegExp(`^Deny ${attacker.replaceAll('.', '\\.')} on “shop” for 1 h`)),
  ).toBeVisible();
  const diff = dialog.getByRole('region', { name: 'ip-deny.txt: version 1 to 2' });
  await expect(diff).toContainText(attacker);
  await expectNoAxeViolations(page, 'remedy preview');
  expect(await sidewaysAt375(page), 'the remedy dialog scrolls sideways at 375 px').toBe(0);
  await page.setViewportSize({ width: 1280, height: 720 });
  const before = Date.now();
  await dialog.getByRole('button', { name: 'Apply as version 2 of shop' }).click();
  await expect(dialog.getByText(/Version 2 of “shop” is saved/)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(block).toBeFocused();

  // The firewall's history has version 2, by this remedy, with the expiring deny entry.
  await page.goto(`/console/firewall/config/${spaceId}/${firewallId}`);
  await page.getByRole('tab', { name: 'History' }).click();
  const versions = page.getByRole('table', { name: 'Versions' });
  await expect(versions.getByRole('row', { name: /2 \(newest\)/ })).toContainText(
    `Block ${attacker} for 1 h (WAF discover)`,
  );
  const settings = page.getByRole('region', { name: 'Settings, version 1 to version 2' });
  await expect(settings).toContainText(`"cidr": "${attacker}/32"`);
  await expect(settings).toContainText('"expiresAt"');
  const saved = await page.request.get(`/api/spaces/${spaceId}/firewalls/${firewallId}`);
  const { ipDeny } = (await saved.json()) as { ipDeny: { cidr: string; expiresAt: string }[] };
  expect(ipDeny).toHaveLength(1);
  expect(Date.parse(ipDeny[0]?.expiresAt ?? '')).toBeGreaterThan(before + 59 * 60_000);
  expect(Date.parse(ipDeny[0]?.expiresAt ?? '')).toBeLessThan(Date.now() + 61 * 60_000);
});

test('discover at 375 px: the page does not scroll sideways, the table scrolls in its own box, accessible', async ({
  page,
}) => {
  const { spaceId } = await spaceWithWafEvents(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/console/alerts/waf/discover/${spaceId}?groupBy=rule`);
  await expect(page.getByRole('table', { name: 'Groups' }).getByRole('rowheader', { name: '942100' })).toBeVisible();
  expect(await sidewaysAt375(page)).toBe(0);
  const box = page.getByRole('region', { name: 'Groups table' });
  expect(await box.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  await expectNoAxeViolations(page, 'discover at 375 px');

  // In dark, the exclusion dialog of a rule takes the screen, asks for the path and previews without scrolling sideways.
  await page.getByRole('radio', { name: /Dark/ }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByRole('button', { name: 'Add exclusion 942100' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add an exclusion' });
  await dialog.getByRole('textbox', { name: 'Path prefix' }).fill('/search');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByText('Would have affected 4 requests from 1 IP in the last 7 days.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeInViewport();
  expect(await sidewaysAt375(page)).toBe(0);
  await expectNoAxeViolations(page, 'exclusion dialog at 375 px, dark');
});
