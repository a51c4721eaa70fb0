import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startTestApi, type TestUser, visit } from '../shared/test-api.ts';
import LoginForm from './LoginForm.tsx';

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

describe('LoginForm', () => {
  test('a wrong password says so next to the password and keeps the address', async () => {
    await api.signInAs(null);
    visit('/auth/login');
    render(<LoginForm />);
    const events = userEvent.setup();
    const email = screen.getByRole('textbox', { name: 'Email' });
    await vi.waitFor(() => expect(email).toBeEnabled());
    await events.type(email, user.email);
    const password = screen.getByLabelText('Password');
    await events.type(password, 'not the password 1');
    await events.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(password).toHaveAccessibleDescription('Wrong email or password.'));
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(email).toHaveValue(user.email);
  });
});
