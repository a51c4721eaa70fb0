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

test('an event of the demo blocks its address from the drawer, permanently, with the preview of the attacker’s week', async ({
  page,
  demoSpace,
}) => {
  test.slow();
  const newest = await page.request.get(`/api/spaces/${demoSpace.spaceId}/events?q=action:blocked&limit=1`);
  const ip = ((await newest.json()) as { items: { ip: string }[] }).items[0]?.ip ?? '';
  expect(ip).not.toBe('');
  await page.goto(`/console/siem/${demoSpace.spaceId}?${new URLSearchParams({ q: `ip:${ip}`, range: '7d' })}`);
  const heading = page.getByRole('heading', {
    name: new RegExp(`^[\\d,]+ events? matching ip:${ip.replaceAll('.', '\\.')}$`),
  });
  await expect(heading).toBeVisible();
  const events = Number(((await heading.textContent()) ?? '').split(' ')[0]?.replace(/,/g, ''));
  const table = page.getByRole('region', { name: 'Events', exact: true });
  await table.getByRole('region', { name: 'Events, scrollable' }).getByRole('button').first().click();
  const drawer = page.getByRole('complementary', { name: /Event / });
  await drawer.getByRole('button', { name: 'Block this address' }).click();
  const dialog = page.getByRole('dialog', { name: 'Block an IP address' });
  await expect(dialog.getByRole('textbox', { name: 'IP address or CIDR range' })).toHaveValue(ip);
  await dialog.getByRole('combobox', { name: 'Block for' }).selectOption('Permanently');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByText(`Would have affected ${events.toLocaleString('en')} request`)).toBeVisible();
  await expect(dialog.getByText(`Deny ${ip} on “Shop edge” for good`)).toBeVisible();
});
