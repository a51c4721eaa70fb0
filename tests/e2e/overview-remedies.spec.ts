/**
 * Acting from the overview: its top client addresses offer "Block this address" and its top rules "This is a false
 * positive", each opening the remedy dialog with its preview, on the demo's own week and on a space whose firewall
 * has seen none of the traffic.
 */
import { BASE_URL } from './base-url.ts';
import { expect, sendEvents, test } from './fixtures.ts';
import { expectNoAxeViolations, expectNoSidewaysScroll } from './page-checks.ts';

const headers = { origin: BASE_URL };

type Firewall = { name: string; version: number; ipDeny: { cidr: string; expiresAt?: string }[] };

test('the overview blocks the demo’s top client address for good: the preview counts its requests, then the firewall denies it', async ({
  page,
  demoSpace,
}) => {
  test.slow();
  const { spaceId, firewallId } = demoSpace;
  const firewallUrl = `/api/spaces/${spaceId}/firewalls/${firewallId}`;
  const before = (await (await page.request.get(firewallUrl)).json()) as Firewall;
  try {
    await page.goto(`/console/${spaceId}`);
    await page.getByLabel('Time range').selectOption('7d');
    const top = page.getByRole('region', { name: 'Top client IPs' });
    const first = top.getByRole('row').nth(1);
    await expect(first.getByRole('button', { name: /^Block this address/ })).toBeVisible();
    const ip = ((await first.getByRole('link').first().textContent()) ?? '').trim();
    expect(ip).toMatch(/^[\d.:a-f]+$/);
    await expect(
      page.getByRole('region', { name: 'Top rules' }).getByRole('button', { name: /^This is a false positive/ }),
    ).not.toHaveCount(0);
    await expectNoAxeViolations(page, 'overview with its actions');
    await expectNoSidewaysScroll(page, 'overview with its actions');

    // By keyboard: the button opens the dialog on the address.
    const block = first.getByRole('button', { name: `Block this address (${ip})` });
    await block.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Block an IP address' });
    await expect(dialog.getByRole('textbox', { name: 'IP address or CIDR range' })).toHaveValue(ip);
    await expect(dialog.getByRole('combobox', { name: 'Firewall' })).toHaveValue(firewallId);
    await dialog.getByRole('combobox', { name: 'Block for' }).selectOption('Permanently');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const affected = dialog.getByText(/^Would have affected [\d,]+ requests? from 1 IP in the last 7 days\.$/);
    await expect(affected).toBeVisible();
    const requests = Number(((await affected.textContent()) ?? '').match(/affected ([\d,]+)/)?.[1]?.replace(/,/g, ''));
    expect(requests).toBeGreaterThan(0);
    await expect(dialog.getByText(`Deny ${ip} on “${before.name}” for good`)).toBeVisible();
    await expectNoAxeViolations(page, 'block preview from the overview');

    await dialog.getByRole('button', { name: `Apply as version ${before.version + 1} of ${before.name}` }).click();
    await expect(dialog.getByText(`Version ${before.version + 1} of “${before.name}” is saved`)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(block).toBeFocused();

    // The firewall's deny list holds the address, with no end.
    await page.goto(`/console/firewall/config/${spaceId}/${firewallId}?tab=ip`);
    const deny = page.getByRole('table', { name: 'Deny list' });
    const entry = deny
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${ip}(/32)?$`) }) });
    await expect(entry).toContainText('never');
  } finally {
    // The demo space is the worker's: the next test finds its firewall as it was.
    const now = (await (await page.request.get(firewallUrl)).json()) as Firewall;
    if (now.version !== before.version) {
      const undo = await page.request.patch(firewallUrl, {
        data: { ipDeny: before.ipDeny, version: now.version, comment: 'Undo the overview test’s block' },
        headers,
      });
      expect(undo.ok(), await undo.text()).toBe(true);
    }
  }
});

test('a block from the overview on a firewall that has seen none of the traffic says so and counts the space’s requests', async ({
  page,
}) => {
  const spaceId = await sendEvents(page);
  const firewall = await page.request.post(`/api/spaces/${spaceId}/firewalls`, {
    data: { name: 'shop', hostnames: ['shop.example.test'], upstream: 'http://127.0.0.1:3000', mode: 'block' },
    headers,
  });
  expect(firewall.status()).toBe(201);
  await page.goto(`/console/${spaceId}`);
  const top = page.getByRole('region', { name: 'Top client IPs' });
  await top.getByRole('button', { name: 'Block this address (8.8.8.8)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Block an IP address' });
  await expect(
    dialog.getByText(
      '“shop” has seen no requests in the last 7 days, so nothing to count there. Across the space, 1 request from 1 IP match.',
    ),
  ).toBeVisible();
  await expectNoAxeViolations(page, 'block preview on a firewall with no traffic');
  await page.keyboard.press('Escape');

  // The top rules offer the exclusion of a rule that detected something, on every path to begin with.
  await page
    .getByRole('region', { name: 'Top rules' })
    .getByRole('button', { name: 'This is a false positive (rule 942100)' })
    .click();
  const exclusion = page.getByRole('dialog', { name: 'Add an exclusion' });
  await expect(exclusion.getByRole('textbox', { name: 'Rule id' })).toHaveValue('942100');
  await expect(exclusion.getByRole('textbox', { name: 'Path prefix' })).toHaveValue('/');
  await expect(exclusion.getByText(/Across the space, 1 request from 1 IP match\.$/)).toBeVisible();
  await expectNoAxeViolations(page, 'exclusion preview from the overview');
});
