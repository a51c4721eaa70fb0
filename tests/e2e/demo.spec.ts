/**
 * The demo's own data (`npm run demo`'s seed, through the `demoSpace` fixture): what a new user tries first works on
 * it, starting with the WAF screens and their remedies, which need the demo's firewall.
 */
import { expect, test } from './fixtures.ts';

test('the demo has a firewall: discover blocks its top attacker with a preview that counts the attacker’s week', async ({
  page,
  demoSpace,
}) => {
  test.slow();
  await page.goto(`/console/firewall/${demoSpace.spaceId}`);
  await expect(page.getByRole('main').getByText('Shop edge').first()).toBeVisible();

  await page.goto(`/console/alerts/waf/discover/${demoSpace.spaceId}?range=7d`);
  const table = page.getByRole('table', { name: 'Groups' });
  const top = table.getByRole('row').nth(1);
  const ip = ((await top.getByRole('rowheader').textContent()) ?? '').trim();
  const events = Number(((await top.getByRole('cell').nth(0).textContent()) ?? '').replace(/\D/g, ''));
  expect(events).toBeGreaterThan(0);
  await top.getByRole('button', { name: `Block IP ${ip}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Block an IP address' });
  await expect(dialog.getByRole('combobox', { name: 'Firewall' })).toHaveValue(demoSpace.firewallId);
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(
    dialog.getByText(`Would have affected ${events.toLocaleString('en-US')} requests from 1 IP`),
  ).toBeVisible();
});
