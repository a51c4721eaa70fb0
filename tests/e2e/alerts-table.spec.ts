/**
 * The alerts list on the demo's data (its alert rules open alerts nobody has taken yet): at 1440 px the assignee shows
 * whole without scrolling the table, and at 375 px it shows whole at the end of the table's own scroll.
 */
import { expect, test } from './fixtures.ts';
import { sidewaysAt375 } from './page-checks.ts';

test.use({ viewport: { width: 1440, height: 900 } });

test('the alerts table shows "unassigned" whole at 1440 px, and in its own scroll at 375 px', async ({
  page,
  demoSpace,
}) => {
  test.slow();
  // The demo's rules open their alerts once the job runner has seen the week's events.
  await expect
    .poll(async () => {
      const answer = await page.request.get(`/api/spaces/${demoSpace.spaceId}/alerts`);
      return ((await answer.json()) as { items: unknown[] }).items.length;
    })
    .toBeGreaterThan(0);
  await page.goto(`/console/alert/${demoSpace.spaceId}`);
  const table = page.getByRole('table', { name: 'Alerts' });
  const unassigned = table.getByText('unassigned').first();
  await expect(unassigned).toBeVisible();

  /** How much of the "unassigned" text lies outside what its table's box shows, in pixels. */
  const hidden = () =>
    unassigned.evaluate((text) => {
      const cell = text.closest('td') as HTMLElement;
      const box = text.closest('.sg-table-wrap') as HTMLElement;
      const shown = box.getBoundingClientRect();
      const own = text.getBoundingClientRect();
      const room = cell.getBoundingClientRect();
      return Math.max(0, own.right - shown.right, shown.left - own.left, own.right - room.right);
    });
  expect(await hidden()).toBeLessThanOrEqual(0);
  // Whole at 1440 px without scrolling the table sideways.
  expect(await table.evaluate((element) => element.getBoundingClientRect().right)).toBeLessThanOrEqual(
    await table.evaluate((element) => (element.closest('.sg-table-wrap') as HTMLElement).getBoundingClientRect().right),
  );

  // On a phone: the page does not scroll sideways; scrolled to its end, the table's box shows "unassigned" whole.
  expect(await sidewaysAt375(page)).toBeLessThanOrEqual(0);
  await table.evaluate((element) => {
    const box = element.closest('.sg-table-wrap') as HTMLElement;
    box.scrollLeft = box.scrollWidth;
  });
  expect(await hidden()).toBeLessThanOrEqual(0);
});
