import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startTestApi, type TestUser, visit } from '../shared/test-api.ts';
import ActivityScreen from './ActivityScreen.tsx';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let admin: TestUser;
let spaceId: string;

beforeAll(async () => {
  api = await startTestApi();
  owner = await api.signUp('olivia@example.com', 'Olivia Owner');
  admin = await api.signUp('adam@example.com', 'Adam Admin');
  spaceId = (await api.call('POST', '/spaces', owner.cookie, { name: 'Acme' })).json.id;
  await api.join(spaceId, owner, admin, 'viewer');
  await api.call('PATCH', `/spaces/${spaceId}/members/${admin.id}`, owner.cookie, { role: 'admin' });
  await api.call('PATCH', `/spaces/${spaceId}`, admin.cookie, { timeZone: 'Europe/Paris' });
});
afterAll(async () => {
  await api.stop();
});

function dataRows(): HTMLElement[] {
  const table = screen.getByRole('table', { name: 'Activity' });
  return within(table).getAllByRole('row').slice(1);
}

describe('ActivityScreen', () => {
  test('shows every record with time, actor, action, object, IP and user agent', async () => {
    await api.signInAs(owner);
    visit(`/console/management/activity/${spaceId}`);
    render(<ActivityScreen />);
    const table = await screen.findByRole('table', { name: 'Activity' });
    const actions = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelectorAll('td')[2]?.textContent);
    expect(actions).toEqual(['space.update', 'member.role_change', 'member.join', 'invitation.create', 'space.create']);
    const update = dataRows()[0];
    if (!update) throw new Error('no row');
    expect(update).toHaveTextContent('Adam Admin');
    expect(update).toHaveTextContent(spaceId);
    expect(within(update).getByText(/\d{4}/, { selector: 'time' })).toHaveAttribute('dateTime');
  });

  test('filters from the URL apply, and applying new ones writes them into the URL', async () => {
    await api.signInAs(owner);
    visit(`/console/management/activity/${spaceId}?action=space.update`);
    render(<ActivityScreen />);
    const user = userEvent.setup();
    const action = await screen.findByRole('combobox', { name: 'Action' });
    expect(action).toHaveValue('space.update');
    await vi.waitFor(() => expect(dataRows()).toHaveLength(1));

    // The actions are a pick list of those the log holds.
    await vi.waitFor(() =>
      expect(
        within(action)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual([
        'Any action',
        'invitation.create',
        'member.join',
        'member.role_change',
        'space.create',
        'space.update',
      ]),
    );
    await user.selectOptions(action, 'member.role_change');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Actor' }), 'Olivia Owner (olivia@example.com)');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    const query = new URLSearchParams(location.search);
    expect(query.get('action')).toBe('member.role_change');
    expect(query.get('actor')).toBe(owner.id);
    await vi.waitFor(() => expect(dataRows()[0]).toHaveTextContent('member.role_change'));
    expect(dataRows()).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      `${location.origin}/api/spaces/${spaceId}/activity/export?format=csv&actor=${owner.id}&action=member.role_change`,
    );

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(location.search).toBe('');
    await vi.waitFor(() => expect(dataRows()).toHaveLength(5));
  });

  test('a filter that matches nothing says so and offers to show everything', async () => {
    await api.signInAs(owner);
    visit(`/console/management/activity/${spaceId}?objectType=firewall`);
    render(<ActivityScreen />);
    expect(await screen.findByText('No activity matches these filters.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show all activity' }));
    expect(await screen.findByRole('table', { name: 'Activity' })).toBeInTheDocument();
  });

  test('each row opens its change in the JSON viewer', async () => {
    await api.signInAs(owner);
    visit(`/console/management/activity/${spaceId}?action=member.role_change`);
    render(<ActivityScreen />);
    const user = userEvent.setup();
    const show = await screen.findByRole('button', { name: 'Show the change of member.role_change' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    await user.click(show);
    const hide = screen.getByRole('button', { name: 'Hide the change of member.role_change' });
    expect(hide).toHaveAttribute('aria-expanded', 'true');
    const tree = screen.getByRole('tree', { name: 'Change of member.role_change' });
    expect(tree).toHaveTextContent('adam@example.com');
    expect(tree).toHaveTextContent('viewer');
    expect(tree).toHaveTextContent('admin');
    await user.click(hide);
    expect(screen.queryByRole('tree')).not.toBeInTheDocument();
  });

  test('"Load more" follows the cursor', async () => {
    const busy = (await api.call('POST', '/spaces', owner.cookie, { name: 'Busy' })).json.id;
    for (let day = 1; day <= 55; day += 1) {
      await api.call('PATCH', `/spaces/${busy}`, owner.cookie, { description: `Change ${day}` });
    }
    await api.signInAs(owner);
    visit(`/console/management/activity/${busy}`);
    render(<ActivityScreen />);
    const more = await screen.findByRole('button', { name: 'Load more' });
    expect(dataRows()).toHaveLength(50);
    await userEvent.setup().click(more);
    await vi.waitFor(() => expect(dataRows()).toHaveLength(56));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });
});
