import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { eq } from 'drizzle-orm';
import type { ComponentType } from 'react';
import { subscriptions } from '../../../server/db/schema/billing.ts';
import { spaces } from '../../../server/db/schema/spaces.ts';
import PastDueBanner from '../console/PastDueBanner.tsx';
import { spaceWithAnalyst } from '../shared/test-alerts.ts';
import { startTestApi, stubModalDialogs, type TestUser, visit } from '../shared/test-api.ts';
import PaymentHistoryScreen from './PaymentHistoryScreen.tsx';
import SubscriptionScreen from './SubscriptionScreen.tsx';
import UpgradeScreen from './UpgradeScreen.tsx';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let viewer: TestUser;
let analyst: TestUser;
let spaceId: string;

beforeAll(stubModalDialogs);
beforeAll(async () => {
  api = await startTestApi();
  ({ owner, viewer, analyst, spaceId } = await spaceWithAnalyst(api));
  // One firewall of the Free plan's one, and the default dashboard of its three.
  await api.call('POST', `/spaces/${spaceId}/firewalls`, owner.cookie, {
    name: 'shop',
    hostnames: ['shop.example.com'],
    upstream: 'http://127.0.0.1:3000',
    mode: 'detect',
  });
});
afterAll(async () => {
  await api.stop();
});

async function open(user: TestUser, path: string, Screen: ComponentType) {
  await api.signInAs(user);
  visit(path);
  const view = render(<Screen />);
  return { user: userEvent.setup(), view };
}

describe('the plan page', () => {
  test('an owner sees the plan and every limit as a bar, full ones marked, each linking to where it lives', async () => {
    const { view } = await open(owner, `/console/subscription/${spaceId}`, SubscriptionScreen);
    expect(await screen.findByRole('heading', { name: 'Free plan' })).toBeInTheDocument();
    expect(screen.getByText('Test mode: no real charge.')).toBeInTheDocument();
    const firewalls = screen.getByRole('meter', { name: 'Firewalls: 1 of 1' });
    expect(firewalls).toHaveAttribute('value', '1');
    const item = firewalls.closest('li') as HTMLElement;
    expect(item).toHaveTextContent('1 of 1 (at the limit)');
    expect(within(item).getByRole('link', { name: 'Firewalls' })).toHaveAttribute(
      'href',
      `/console/firewall/${spaceId}`,
    );
    // Three members (owner, viewer, analyst) of three: at the limit; one dashboard of three: fine.
    expect(screen.getByRole('meter', { name: 'Members (pending invitations included): 3 of 3' })).toBeInTheDocument();
    expect(screen.getByRole('meter', { name: 'Dashboards: 1 of 3' }).closest('li')).toHaveTextContent(
      /^Dashboards1 of 3$/,
    );
    expect((await axe.run(view.container)).violations).toEqual([]);
  });

  test.each([
    ['a viewer', () => viewer],
    ['an analyst', () => analyst],
  ])('%s sees that only owners see the subscription, and no control', async (_, who) => {
    await open(who(), `/console/subscription/${spaceId}`, SubscriptionScreen);
    expect(await screen.findByText('Only the owners of a space see and change its subscription.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Change plan' })).not.toBeInTheDocument();
  });
});

describe('a space put on a paid plan without a payment, as the demo is', () => {
  test('the plan page and the payment history say it is not billed, and no page promises cards it does not show', async () => {
    const created = await api.call('POST', '/spaces', owner.cookie, { name: 'Given Pro' });
    const givenId = String((created.json as { id: string }).id);
    await api.db.update(spaces).set({ plan: 'pro' }).where(eq(spaces.id, givenId));
    const { view } = await open(owner, `/console/subscription/${givenId}`, SubscriptionScreen);
    expect(await screen.findByRole('heading', { name: 'Pro plan, not billed' })).toBeInTheDocument();
    const facts = view.container.querySelector('.sg-facts') as HTMLElement;
    expect(facts).toHaveTextContent('PriceNone: this space was put on the Pro plan without a payment');
    expect(facts).not.toHaveTextContent('Free');
    expect(screen.getByRole('note')).not.toHaveTextContent('below');
    view.unmount();
    await open(owner, `/console/subscription/payment-history/${givenId}`, PaymentHistoryScreen);
    expect(await screen.findByText(/^No payments yet/)).toHaveTextContent(
      'No payments yet: this space was put on the Pro plan without a payment, so nothing has been charged.',
    );
  });
});

describe('changing the plan', () => {
  test('a declined card says why and changes nothing; the card that succeeds moves the space to Pro at once', async () => {
    const { user } = await open(owner, `/console/subscription/upgrade/${spaceId}`, UpgradeScreen);
    await user.click(await screen.findByRole('button', { name: 'Choose Pro' }));
    const change = screen.getByRole('region', { name: /Change to Pro/ });
    const lines = await within(change).findByRole('table', { name: 'Charged now' });
    expect(within(lines).getByRole('row', { name: /Total/ })).toHaveTextContent('$49.00');
    const form = within(change).getByRole('form', { name: 'Pay for Pro' });
    const year = String(new Date().getUTCFullYear() + 1);
    await user.type(within(form).getByLabelText('Card number'), '4000 0000 0000 0002');
    await user.type(within(form).getByLabelText('Expiry month'), '12');
    await user.type(within(form).getByLabelText('Expiry year'), year);
    await user.type(within(form).getByLabelText('CVC'), '123');
    await user.click(within(form).getByRole('button', { name: 'Pay $49.00' }));
    expect(await within(change).findByRole('alert')).toHaveTextContent('Your card was declined.');
    expect((await api.call('GET', `/spaces/${spaceId}/subscription`, owner.cookie)).json.plan).toBe('free');

    await user.clear(within(form).getByLabelText('Card number'));
    await user.type(within(form).getByLabelText('Card number'), '4242424242424242');
    await user.click(within(form).getByRole('button', { name: 'Pay $49.00' }));
    expect(
      await screen.findByText(/You are on the Pro plan now; invoice INV-0001 for \$49\.00 is paid\./),
    ).toBeInTheDocument();
    const stored = await api.call('GET', `/spaces/${spaceId}/subscription`, owner.cookie);
    expect(stored.json.plan).toBe('pro');
    expect(stored.json.usage.firewalls).toEqual({ used: 1, limit: 5 });
    expect(stored.json.paymentMethod).toEqual({ brand: 'Visa', last4: '4242' });
  });

  test('the payment history lists the invoice with its receipt; a refund marks it refunded', async () => {
    const { user, view } = await open(owner, `/console/subscription/payment-history/${spaceId}`, PaymentHistoryScreen);
    const table = await screen.findByRole('table');
    const row = within(table).getByRole('row', { name: /INV-0001/ });
    expect(row).toHaveTextContent('Pro, monthly');
    expect(row).toHaveTextContent('$49.00');
    expect(row).toHaveTextContent('Paid');
    expect(within(row).getByRole('link', { name: 'Receipt INV-0001' }).getAttribute('href')).toMatch(
      new RegExp(`/api/spaces/${spaceId}/payments/[0-9a-f-]+/receipt$`),
    );
    expect((await axe.run(view.container)).violations).toEqual([]);
    await user.click(within(row).getByRole('button', { name: 'Refund INV-0001' }));
    await user.click(screen.getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('INV-0001 is refunded.')).toBeInTheDocument();
    expect(await within(table).findByText('Refunded')).toBeInTheDocument();
  });
});

describe('a renewal that failed', () => {
  test('owners see a warning on every console page with the way to pay; other roles see nothing', async () => {
    await api.db
      .update(subscriptions)
      .set({ status: 'past_due', failedAt: new Date(Date.now() - 86_400_000) })
      .where(eq(subscriptions.spaceId, spaceId));
    const { view } = await open(owner, `/console/firewall/${spaceId}`, PastDueBanner);
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent("This space's renewal could not be charged.");
    expect(banner).toHaveTextContent(/moves to the Free plan on \d+ \w+ \d{4}, keeping its data/);
    expect(within(banner).getByRole('link', { name: 'Pay now' })).toHaveAttribute(
      'href',
      `/console/subscription/upgrade/${spaceId}`,
    );
    view.unmount();
    await open(viewer, `/console/firewall/${spaceId}`, PastDueBanner);
    // The viewer's space loads, and no banner follows (nor any request for the subscription).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
