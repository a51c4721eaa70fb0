import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { navigate } from '../shared/navigate.ts';
import { startTestApi, type TestUser, visit } from '../shared/test-api.ts';
import ProfileScreen from './ProfileScreen.tsx';

vi.mock('../shared/navigate.ts', () => ({ navigate: vi.fn() }));
vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let user: TestUser;

beforeAll(async () => {
  api = await startTestApi();
  user = await api.signUp('olivia@example.com', 'Olivia Owner');
});
afterAll(async () => {
  await api.stop();
});

describe('ProfileScreen', () => {
  test('shows the active sessions, the current one marked', async () => {
    await api.signInAs(user);
    visit('/profile');
    render(<ProfileScreen />);
    const sessions = await screen.findByRole('table');
    expect(within(sessions).getByText('(this session)')).toBeInTheDocument();
    expect(within(sessions).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  test('creates an API token, shows its secret once, and revokes it', async () => {
    await api.signInAs(user);
    visit('/profile');
    render(<ProfileScreen />);
    const events = userEvent.setup();
    await events.type(await screen.findByRole('textbox', { name: 'Token name' }), 'ci');
    await events.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText(/Token “ci” created\. Copy it now/)).toBeInTheDocument();
    const revoke = await screen.findByRole('button', { name: 'Revoke ci' });
    await events.click(revoke);
    expect(await screen.findByText('No tokens yet. Create one for scripts that call the API.')).toBeInTheDocument();
  });

  test('a name the API refuses shows its message next to the field', async () => {
    await api.signInAs(user);
    visit('/profile');
    render(<ProfileScreen />);
    const events = userEvent.setup();
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await events.clear(name);
    await events.type(name, '   ');
    await events.click(screen.getByRole('button', { name: 'Save name' }));
    await vi.waitFor(() => expect(name).toHaveAccessibleDescription('Enter your name.'));
    expect(name).toHaveAttribute('aria-invalid', 'true');
  });

  test('a signed-out visitor is sent to sign in', async () => {
    await api.signInAs(null);
    visit('/profile');
    render(<ProfileScreen />);
    expect(await screen.findByText('Loading your profile…')).toBeInTheDocument();
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith(`/auth/login?next=${encodeURIComponent('/profile')}`));
  });
});
