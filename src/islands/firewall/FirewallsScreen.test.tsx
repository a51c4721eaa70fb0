import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startTestApi, type TestUser, visit } from '../shared/test-api.ts';
import FirewallsScreen from './FirewallsScreen.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let viewer: TestUser;
let spaceId: string;

beforeAll(async () => {
  api = await startTestApi();
  owner = await api.signUp('olivia@example.com', 'Olivia Owner');
  viewer = await api.signUp('vic@example.com', 'Vic Viewer');
  spaceId = (await api.call('POST', '/spaces', owner.cookie, { name: 'Acme' })).json.id;
  await api.join(spaceId, owner, viewer, 'viewer');
});
afterAll(async () => {
  await api.stop();
});

async function open(user: TestUser) {
  await api.signInAs(user);
  visit(`/console/firewall/${spaceId}`);
  const view = render(<FirewallsScreen />);
  await screen.findByRole('button', { name: 'Refresh' });
  return view;
}

describe('FirewallsScreen', () => {
  test('empty, create with field errors, token and command once, list row, plan limit, delete by name', async () => {
    const view = await open(owner);
    const user = userEvent.setup();
    expect(screen.getByText(/^No firewalls yet\. Create one below/)).toBeVisible();
    const form = screen.getByRole('form', { name: 'Create a firewall' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'shop');
    await user.type(within(form).getByRole('textbox', { name: 'Host names' }), 'shop.example.com{enter}bad host');
    await user.type(within(form).getByRole('textbox', { name: 'Upstream' }), 'ftp://x');
    await user.click(within(form).getByRole('button', { name: 'Create firewall' }));
    expect(await within(form).findByText(/^Line 2: Use a host name such as/)).toBeInTheDocument();
    expect(within(form).getByText('Use http://host:port or https://host:port, without a path.')).toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: 'Upstream' })).toHaveAttribute('aria-invalid', 'true');

    const hostnames = within(form).getByRole('textbox', { name: 'Host names' });
    await user.clear(hostnames);
    await user.type(hostnames, 'shop.example.com');
    const upstream = within(form).getByRole('textbox', { name: 'Upstream' });
    await user.clear(upstream);
    await user.type(upstream, 'http://127.0.0.1:3000');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Mode' }), 'block');
    await user.click(within(form).getByRole('button', { name: 'Create firewall' }));
    const token = (await screen.findByRole('textbox', { name: 'Connector token' })) as HTMLInputElement;
    expect(token.value.length).toBeGreaterThan(20);
    expect(screen.getByText('Firewall “shop” created.')).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: 'Run the connector' })).toHaveTextContent(
      `npm run waf -- --api ${location.origin} --token ${token.value} --listen 127.0.0.1:8080`,
    );
    const table = await screen.findByRole('table', { name: 'Firewalls' });
    const row = within(table).getByRole('rowheader', { name: 'shop' }).closest('tr') as HTMLElement;
    const id = (await api.call('GET', `/spaces/${spaceId}/firewalls`, owner.cookie)).json.items[0].id;
    expect(within(row).getByRole('link', { name: 'shop' })).toHaveAttribute(
      'href',
      `/console/firewall/config/${spaceId}/${id}`,
    );
    expect(row).toHaveTextContent('shop.example.com');
    expect(row).toHaveTextContent('http://127.0.0.1:3000');
    expect(row).toHaveTextContent('Block');
    expect(row).toHaveTextContent('never connected');

    // The free plan allows one firewall: the second create says so and links to the plans.
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'blog');
    await user.type(within(form).getByRole('textbox', { name: 'Host names' }), 'blog.example.com');
    await user.type(within(form).getByRole('textbox', { name: 'Upstream' }), 'http://127.0.0.1:3001');
    await user.click(within(form).getByRole('button', { name: 'Create firewall' }));
    const refused = await within(form).findByRole('alert');
    expect(refused).toHaveTextContent('Firewalls on Free: 1 of 1 used; Pro allows 5 See plans');
    expect(within(refused).getByRole('link', { name: 'See plans' })).toHaveAttribute(
      'href',
      `/console/subscription/upgrade/${spaceId}`,
    );

    // Shown once: the next visit lists the firewall without its token.
    view.unmount();
    await open(owner);
    expect(screen.queryByRole('textbox', { name: 'Connector token' })).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(token.value);

    await user.click(screen.getByRole('button', { name: 'Delete shop' }));
    const confirm = screen.getByRole('form', { name: 'Delete shop' });
    const typed = within(confirm).getByRole('textbox', { name: 'Type shop to delete it' });
    expect(typed).toHaveFocus();
    expect(within(confirm).getByRole('button', { name: 'Delete firewall' })).toBeDisabled();
    await user.type(typed, 'shop');
    await user.click(within(confirm).getByRole('button', { name: 'Delete firewall' }));
    expect(await screen.findByText(/Firewall “shop” was deleted\./)).toBeInTheDocument();
    expect((await api.call('GET', `/spaces/${spaceId}/firewalls`, owner.cookie)).json.items).toEqual([]);
  });

  test('a viewer reads the list but cannot create or delete', async () => {
    await api.call('POST', `/spaces/${spaceId}/firewalls`, owner.cookie, {
      name: 'api',
      hostnames: ['api.example.com'],
      upstream: 'http://127.0.0.1:4000',
      mode: 'detect',
    });
    await open(viewer);
    const table = screen.getByRole('table', { name: 'Firewalls' });
    expect(within(table).getByRole('link', { name: 'api' })).toBeInTheDocument();
    expect(within(table).getByText('Detect only')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Create a firewall' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(
      screen.getByText('Only admins and owners of this space can create, change or delete firewalls.'),
    ).toBeVisible();
  });
});
