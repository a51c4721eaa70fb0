/**
 * WAF discover at a glance: on a 1440×900 screen each group is one line with its sparkline and its "Block IP" in
 * view, and every group of a large answer can be reached, page after page; a phone never scrolls sideways.
 */
import type { Page } from '@playwright/test';
import { expect, spaceWithEvents, test } from './fixtures.ts';
import { expectNoAxeViolations, sidewaysAt375 } from './page-checks.ts';

/** A space with WAF events from `count` addresses over the last hour, address n sending n events. */
async function manyAttackers(page: Page, count: number): Promise<string> {
  const now = Date.now();
  const lines = Array.from({ length: count }, (_, i) =>
    Array.from({ length: i + 1 }, (_, j) => ({
      time: new Date(now - 60_000 - (i * 7 + j) * 5_000).toISOString(),
      ip: `198.51.${Math.floor(i / 200)}.${(i % 200) + 1}`,
      method: 'GET',
      host: 'shop.example.test',
      path: `/search?q=${i}-${j}`,
      status: 403,
      action: 'blocked',
      severity: 'critical',
      ruleIds: [942100],
      tags: ['attack-sqli'],
    })),
  ).flat();
  return spaceWithEvents(page, 'Discover at a glance', lines);
}

test('at 1440×900 a group is one line with its sparkline and Block IP in view, and Show more reaches every group', async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize({ width: 1440, height: 900 });
  const spaceId = await manyAttackers(page, 60);
  await page.goto(`/console/alerts/waf/discover/${spaceId}`);
  const table = page.getByRole('table', { name: 'Groups' });
  await expect(page.getByRole('heading', { name: '1,830 events in 60 groups' })).toBeVisible();
  // The largest group is the address that sent 60 events, and the first page stops at 50 of 60 groups.
  const first = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: '198.51.0.60' }) });
  await expect(first.getByRole('cell').nth(0)).toHaveText('60');
  await expect(table.getByRole('rowheader')).toHaveCount(50);
  await expect(page.getByText('50 of 60 groups')).toBeVisible();

  // The row's last control and its sparkline are inside the window and the table's box, on one line.
  const block = first.getByRole('button', { name: 'Block IP 198.51.0.60' });
  const box = await page.getByRole('region', { name: 'Groups table' }).boundingBox();
  const button = await block.boundingBox();
  const row = await first.boundingBox();
  const spark = await first.getByRole('img').boundingBox();
  if (!box || !button || !row || !spark) throw new Error('discover not laid out');
  expect(button.x + button.width, 'Block IP right edge').toBeLessThanOrEqual(Math.min(1440, box.x + box.width));
  expect(spark.x + spark.width, 'sparkline right edge').toBeLessThanOrEqual(box.x + box.width);
  expect(row.height, 'row height').toBeLessThanOrEqual(2 * button.height);
  const overTime = table.getByRole('columnheader', { name: 'Over time' });
  expect(await overTime.evaluate((cell) => cell.scrollWidth <= cell.clientWidth)).toBe(true);

  // The ten smallest groups come with the next page, after the fifty, and the control goes away at the end.
  await page.getByRole('button', { name: 'Show more groups' }).click();
  await expect(table.getByRole('rowheader')).toHaveCount(60);
  await expect(table.getByRole('rowheader').last()).toHaveText('198.51.0.1');
  await expect(page.getByRole('button', { name: 'Show more groups' })).toHaveCount(0);
  await expectNoAxeViolations(page, 'discover with every group');

  expect(await sidewaysAt375(page), 'sideways scroll at 375 px').toBeLessThanOrEqual(0);
});
