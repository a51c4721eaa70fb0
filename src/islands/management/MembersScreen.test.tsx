import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startTestApi, type TestUser, visit } from '../shared/test-api.ts';
import MembersScreen from './MembersScreen.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let viewer: TestUser;
let spaceId: string;

beforeAll(async () => {
  api = await startTestApi();
  owner = await api.signUp('olivia@example.com', 'Olivia Owner');
  viewer = await api.signUp('victor@example.com', 'Victor Viewer');
  spaceId = (await api.call('POST', '/spaces', owner.cookie, { name: 'Acme' })).json.id;
  await api.join(spaceId, owner, viewer, 'viewer');
});
afterAll(async () => {
  await api.stop();
});

describe('MembersScreen', () => {
  test('lists the members with name, email, role and joined date', async () => {
    await api.signInAs(owner);
    visit(`/console/management/member/${spaceId}`);
    render(<MembersScreen />);
    const table = await screen.findByRole('table', { name: 'Members' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(table).getByRole('rowheader', { name: /Olivia Owner/ })).toHaveTextContent('(you)');
    expect(within(table).getByText('victor@example.com')).toBeInTheDocument();
    expect(within(table).getByRole('combobox', { name: 'Role of Victor Viewer' })).toHaveValue('viewer');
    expect(within(table).getAllByRole('cell', { name: /\d{4}/ }).length).toBeGreaterThan(0);
    expect(screen.getByText('No pending invitations.')).toBeInTheDocument();
  });

  test('invite shows the API field error next to the email field and keeps the typed value', async () => {
    await api.signInAs(owner);
    visit(`/console/management/member/${spaceId}`);
    render(<MembersScreen />);
    const user = userEvent.setup();
    const email = await screen.findByRole('textbox', { name: 'Email' });
    await user.type(email, 'victor@example.com');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Already a member of this space.')).toBeInTheDocument();
    expect(email).toHaveValue('victor@example.com');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Already a member of this space.');
  });

  test('invite adds a pending invitation, which can be revoked', async () => {
    await api.signInAs(owner);
    visit(`/console/management/member/${spaceId}`);
    render(<MembersScreen />);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'analyst');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to ada@example.com.')).toBeInTheDocument();
    const invitations = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(within(invitations).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(invitations).getByText('Analyst')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Revoke the invitation of ada@example.com' }));
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('No pending invitations.')).toBeInTheDocument();
  });

  test('the last owner cannot step down: the API refusal is shown and the role stays', async () => {
    await api.signInAs(owner);
    visit(`/console/management/member/${spaceId}`);
    render(<MembersScreen />);
    const user = userEvent.setup();
    const mine = await screen.findByRole('combobox', { name: 'Role of Olivia Owner' });
    await user.selectOptions(mine, 'admin');
    await user.click(screen.getByRole('button', { name: 'Save the role of Olivia Owner' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A space always keeps an owner');
    expect(screen.getByRole('combobox', { name: 'Role of Olivia Owner' })).toHaveValue('owner');
  });

  test('an owner changes a role with select and Save', async () => {
    await api.signInAs(owner);
    visit(`/console/management/member/${spaceId}`);
    render(<MembersScreen />);
    const user = userEvent.setup();
    const role = await screen.findByRole('combobox', { name: 'Role of Victor Viewer' });
    await user.selectOptions(role, 'analyst');
    await user.click(screen.getByRole('button', { name: 'Save the role of Victor Viewer' }));
    expect(await screen.findByText('Victor Viewer is now analyst.')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: /Save the role/ })).not.toBeInTheDocument());
    expect(screen.getByRole('combobox', { name: 'Role of Victor Viewer' })).toHaveValue('analyst');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role of Victor Viewer' }), 'viewer');
    await user.click(screen.getByRole('button', { name: 'Save the role of Victor Viewer' }));
    expect(await screen.findByText('Victor Viewer is now viewer.')).toBeInTheDocument();
  });

  test('a viewer sees the members read-only and no invite form', async () => {
    await api.signInAs(viewer);
    visit(`/console/management/member/${spaceId}`);
    render(<MembersScreen />);
    const table = await screen.findByRole('table', { name: 'Members' });
    expect(within(table).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(table).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Invite a member' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Email' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Leave space' })).toBeInTheDocument();
  });

  test('a space the user is not a member of says so, with a link to the spaces', async () => {
    await api.signInAs(viewer);
    visit('/console/management/member/00000000-0000-4000-8000-000000000000');
    render(<MembersScreen />);
    expect(await screen.findByText('This space does not exist or you are not a member.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your spaces' })).toHaveAttribute('href', '/spaces');
  });

  test('a failed load offers Retry, which loads again', async () => {
    await api.signInAs(owner);
    visit(`/console/management/member/${spaceId}`);
    const working = globalThis.fetch;
    globalThis.fetch = (async () => {
      throw new TypeError('offline');
    }) as typeof fetch;
    render(<MembersScreen />);
    const retry = await screen.findByRole('button', { name: 'Retry' });
    expect(screen.getByRole('alert')).toHaveTextContent('Could not reach the server');
    globalThis.fetch = working;
    await userEvent.setup().click(retry);
    expect(await screen.findByRole('table', { name: 'Members' })).toBeInTheDocument();
  });
});
