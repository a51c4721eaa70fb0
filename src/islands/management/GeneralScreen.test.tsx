import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { navigate } from '../shared/navigate.ts';
import { startTestApi, type TestUser, visit } from '../shared/test-api.ts';
import GeneralScreen from './GeneralScreen.tsx';

vi.mock('../shared/navigate.ts', () => ({ navigate: vi.fn() }));
vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let analyst: TestUser;
let spaceId: string;

beforeAll(async () => {
  api = await startTestApi();
  owner = await api.signUp('olivia@example.com', 'Olivia Owner');
  analyst = await api.signUp('ann@example.com', 'Ann Analyst');
  spaceId = (
    await api.call('POST', '/spaces', owner.cookie, {
      name: 'Acme',
      description: 'Our **main** space',
      timeZone: 'UTC',
    })
  ).json.id;
  await api.join(spaceId, owner, analyst, 'analyst');
});
afterAll(async () => {
  await api.stop();
});
beforeEach(() => {
  vi.mocked(navigate).mockClear();
});

describe('GeneralScreen', () => {
  test('saves name, description, time zone and retention, and says so', async () => {
    await api.signInAs(owner);
    visit(`/console/management/general/${spaceId}`);
    render(<GeneralScreen />);
    const user = userEvent.setup();
    const name = await screen.findByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Acme');
    await user.clear(name);
    await user.type(name, 'Acme Security');
    const description = screen.getByRole('textbox', { name: 'Description' });
    await user.clear(description);
    await user.type(description, '# Team space');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Time zone' }), 'Europe/Paris');
    const retention = screen.getByRole('spinbutton', { name: 'Data retention (days)' });
    await user.clear(retention);
    await user.type(retention, '5');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    const saved = (await api.call('GET', `/spaces/${spaceId}`, owner.cookie)).json;
    expect(saved).toMatchObject({
      name: 'Acme Security',
      description: '# Team space',
      timeZone: 'Europe/Paris',
      retentionDays: 5,
    });
  });

  test('retention beyond the plan shows the API message next to the field and keeps the value', async () => {
    await api.signInAs(owner);
    visit(`/console/management/general/${spaceId}`);
    render(<GeneralScreen />);
    const user = userEvent.setup();
    const retention = await screen.findByRole('spinbutton', { name: 'Data retention (days)' });
    await user.clear(retention);
    await user.type(retention, '30');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    // Next to the field, and above the form with a link to the plans.
    const message = 'Retention on Free: 30 days asked; Free allows 7; Pro allows 30';
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`${message} See plans`);
    expect(within(alert).getByRole('link', { name: 'See plans' })).toHaveAttribute(
      'href',
      `/console/subscription/upgrade/${spaceId}`,
    );
    expect(retention).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(retention).toHaveValue(30);
    expect(retention).toHaveAttribute('aria-invalid', 'true');
  });

  test('the description preview renders the Markdown', async () => {
    await api.signInAs(owner);
    visit(`/console/management/general/${spaceId}`);
    render(<GeneralScreen />);
    const user = userEvent.setup();
    const description = await screen.findByRole('textbox', { name: 'Description' });
    await user.clear(description);
    await user.type(description, 'Protects **shop** and *blog*');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(screen.getByRole('button', { name: 'Preview' })).toHaveAttribute('aria-pressed', 'true');
    const preview = screen.getByRole('region', { name: 'Description' });
    expect((await within(preview).findByText('shop')).tagName).toBe('STRONG');
    expect(within(preview).getByText('blog').tagName).toBe('EM');
    await user.click(screen.getByRole('button', { name: 'Write' }));
    expect(screen.getByRole('textbox', { name: 'Description' })).toHaveValue('Protects **shop** and *blog*');
  });

  test('an analyst reads the settings and sees no form, transfer or delete', async () => {
    await api.signInAs(analyst);
    visit(`/console/management/general/${spaceId}`);
    render(<GeneralScreen />);
    expect(await screen.findByText('Only admins and owners can change these settings.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save settings' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Transfer ownership' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Delete this space' })).not.toBeInTheDocument();
  });

  test('delete needs the exact name, then goes to /spaces', async () => {
    const doomed = (await api.call('POST', '/spaces', owner.cookie, { name: 'Doomed Space' })).json.id;
    await api.signInAs(owner);
    visit(`/console/management/general/${doomed}`);
    render(<GeneralScreen />);
    const user = userEvent.setup();
    const confirm = await screen.findByRole('textbox', { name: /Type the name of the space, Doomed Space/ });
    const button = screen.getByRole('button', { name: 'Delete this space' });
    for (const almost of ['Doomed', 'doomed space', 'Doomed Space ']) {
      await user.clear(confirm);
      await user.type(confirm, almost);
      expect(button).toBeDisabled();
    }
    await user.clear(confirm);
    await user.type(confirm, 'Doomed Space');
    expect(button).toBeEnabled();
    await user.click(button);
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('/spaces'));
    await expect(api.call('GET', `/spaces/${doomed}`, owner.cookie)).rejects.toThrow(/404/);
  });

  test('the owner transfers ownership and then sees the admin view', async () => {
    const handed = (await api.call('POST', '/spaces', owner.cookie, { name: 'Handover' })).json.id;
    await api.join(handed, owner, analyst, 'viewer');
    await api.signInAs(owner);
    visit(`/console/management/general/${handed}`);
    render(<GeneralScreen />);
    const user = userEvent.setup();
    expect(await screen.findByRole('combobox', { name: 'New owner' })).toHaveValue(analyst.id);
    await user.click(screen.getByRole('button', { name: 'Transfer ownership' }));
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    expect(await screen.findByText('Ann Analyst is now the owner of Handover; you are an admin.')).toBeInTheDocument();
    await vi.waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Delete this space' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('button', { name: 'Save settings' })).toBeInTheDocument();
  });

  test('a signed-out visitor is sent to sign in', async () => {
    await api.signInAs(null);
    visit(`/console/management/general/${spaceId}`);
    render(<GeneralScreen />);
    expect(await screen.findByText('You are signed out; taking you to sign in…')).toBeInTheDocument();
    await vi.waitFor(() =>
      expect(navigate).toHaveBeenCalledWith(
        `/auth/login?next=${encodeURIComponent(`/console/management/general/${spaceId}`)}`,
      ),
    );
  });
});
