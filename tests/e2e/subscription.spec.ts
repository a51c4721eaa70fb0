/**
 * Subscription through the built pages and the real API: a Free space refuses a second firewall with the
 * plan-limit message and a way to the plans; the owner upgrades to Pro with the test card that succeeds (the one
 * that is declined changes nothing), sees the raised limit and the usage bars, and the second firewall is created;
 * the receipt prints; a retried checkout charges once; an admin and a viewer see no subscription controls and get
 * 404 from its API. Accessible, no sideways scroll at 375 px.
 */
import type { Page } from '@playwright/test';
import { BASE_URL } from './base-url.ts';
import { createAccount, expect, mailedLink, newSpace, test } from './fixtures.ts';
import { expectNoAxeViolations, expectNoSidewaysScroll } from './page-checks.ts';

const headers = { origin: BASE_URL };

async function createFirewall(page: Page, name: string, host: string) {
  const form = page.getByRole('form', { name: 'Create a firewall' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await form.getByRole('textbox', { name: 'Host names' }).fill(host);
  await form.getByRole('textbox', { name: 'Upstream' }).fill('http://127.0.0.1:3000');
  await form.getByRole('button', { name: 'Create firewall' }).click();
  return form;
}

async function payWith(page: Page, number: string) {
  const form = page.getByRole('form', { name: 'Pay for Pro' });
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Expiry month').fill('12');
  await form.getByLabel('Expiry year').fill(String(new Date().getUTCFullYear() + 2));
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: /^Pay \$/ }).click();
}

test('a Free space past its firewall limit upgrades to Pro with the test card; a declined card changes nothing; the receipt prints', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const spaceId = await newSpace(page.request, `Billing ${Date.now()}`);
  await page.goto(`/console/firewall/${spaceId}`);
  await createFirewall(page, 'shop', 'shop.example.com');
  await expect(page.getByRole('table', { name: 'Firewalls' }).getByRole('link', { name: 'shop' })).toBeVisible();
  const refused = await createFirewall(page, 'blog', 'blog.example.com');
  await expect(refused.getByText('Firewalls on Free: 1 of 1 used; Pro allows 5')).toBeVisible();
  await refused.getByRole('link', { name: 'See plans' }).click();
  await expect(page).toHaveURL(new RegExp(`/console/subscription/upgrade/${spaceId}$`));
  await expect(page.getByText('Test mode: no real charge.')).toBeVisible();
  await expectNoAxeViolations(page, 'plans');
  await expectNoSidewaysScroll(page, 'plans');

  await page.getByRole('button', { name: 'Choose Pro' }).click();
  const change = page.getByRole('region', { name: /Change to Pro/ });
  await expect(change.getByRole('table', { name: 'Charged now' })).toContainText('$49.00');
  // Declined: the provider's message, and the space stays on Free.
  await payWith(page, '4000 0000 0000 0002');
  await expect(change.getByRole('alert')).toContainText(/declined/i);
  expect(
    ((await (await page.request.get(`/api/spaces/${spaceId}/subscription`)).json()) as { plan: string }).plan,
  ).toBe('free');
  await payWith(page, '4242 4242 4242 4242');
  await expect(page.getByText(/You are on the Pro plan now; invoice INV-0001 for \$49\.00 is paid\./)).toBeVisible();

  // The plan page: Pro, the period, and the raised limit in the usage bars.
  await page.getByRole('link', { name: 'See the plan and usage' }).click();
  await expect(page.getByRole('heading', { name: 'Pro plan, billed every month' })).toBeVisible();
  await expect(page.getByRole('meter', { name: 'Firewalls: 1 of 5' })).toBeVisible();
  await expect(page.getByText('Visa ending in 4242')).toBeVisible();
  await expectNoAxeViolations(page, 'plan page');
  await expectNoSidewaysScroll(page, 'plan page');

  // Between paid plans the difference is prorated: a credit for the unused part of Pro, line by line, before paying.
  await page.goto(`/console/subscription/upgrade/${spaceId}`);
  await page.getByRole('button', { name: 'Choose Business' }).click();
  const lines = page.getByRole('region', { name: /Change to Business/ }).getByRole('table', { name: 'Charged now' });
  await expect(lines.getByRole('row', { name: /Unused time on Pro, monthly/ })).toContainText('-$');
  await expect(lines.getByRole('row', { name: /Business, monthly/ }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();

  // The second firewall is created now.
  await page.goto(`/console/firewall/${spaceId}`);
  await createFirewall(page, 'blog', 'blog.example.com');
  await expect(page.getByRole('table', { name: 'Firewalls' }).getByRole('link', { name: 'blog' })).toBeVisible();

  // Payment history and the receipt, printed by Chromium as a PDF.
  await page.goto(`/console/subscription/payment-history/${spaceId}`);
  const row = page.getByRole('row', { name: /INV-0001/ });
  await expect(row).toContainText('$49.00');
  await expect(row).toContainText('Paid');
  await expectNoAxeViolations(page, 'payment history');
  const [receipt] = await Promise.all([
    page.waitForEvent('popup'),
    row.getByRole('link', { name: 'Receipt INV-0001' }).click(),
  ]);
  await expect(receipt.getByRole('definition').filter({ hasText: 'INV-0001' })).toBeVisible();
  await expect(receipt.getByText(/Test mode: no real charge/).first()).toBeVisible();
  await expect(receipt.getByText(/Visa .*4242/).first()).toBeVisible();
  await expect(receipt.getByText('$49.00').first()).toBeVisible();
  await receipt.emulateMedia({ media: 'print' });
  const pdf = await receipt.pdf({ format: 'A4' });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(await receipt.getByRole('navigation').count()).toBe(0);
});

test('a retried checkout charges once; an admin and a viewer get no subscription and 404 from its API', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const spaceId = await newSpace(page.request, `Billing roles ${Date.now()}`);
  const body = {
    plan: 'pro',
    interval: 'month',
    card: { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' },
  };
  const send = () =>
    page.request.post(`/api/spaces/${spaceId}/subscription/checkout`, {
      headers: { ...headers, 'idempotency-key': 'retry-once-1' },
      data: body,
    });
  const first = await send();
  const second = await send();
  expect([first.status(), second.status()]).toEqual([200, 200]);
  expect(await second.json()).toEqual(await first.json());
  const payments = (await (await page.request.get(`/api/spaces/${spaceId}/payments`)).json()) as { items: unknown[] };
  expect(payments.items).toHaveLength(1);

  for (const role of ['admin', 'viewer'] as const) {
    const context = await browser.newContext({ baseURL: BASE_URL });
    const other = await context.newPage();
    const member = await createAccount(other.request, `billing-${role}`);
    const invited = await page.request.post(`/api/spaces/${spaceId}/invitations`, {
      data: { email: member.email, role },
      headers,
    });
    expect(invited.status()).toBe(201);
    const link = await mailedLink(other.request, member.email, '/spaces?invitation=');
    const token = new URLSearchParams(link.split('?')[1]).get('invitation') ?? '';
    expect((await other.request.post(`/api/invitations/${token}/accept`, { headers })).ok()).toBe(true);
    expect((await other.request.get(`/api/spaces/${spaceId}/subscription`)).status()).toBe(404);
    expect((await other.request.get(`/api/spaces/${spaceId}/payments`)).status()).toBe(404);
    await other.goto(`/console/subscription/${spaceId}`);
    await expect(other.getByText('Only the owners of a space see and change its subscription.')).toBeVisible();
    await expect(other.getByRole('link', { name: 'Change plan' })).toHaveCount(0);
    await other.goto(`/console/subscription/upgrade/${spaceId}`);
    await expect(other.getByText('Only the owners of a space see and change its subscription.')).toBeVisible();
    await expect(other.getByRole('button', { name: /^Choose/ })).toHaveCount(0);
    await context.close();
  }
});
