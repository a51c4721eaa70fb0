import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../../lib/api.ts';
import { FormProblem, submitErrors, text, useSubmit } from './use-submit.ts';

describe('submitErrors', () => {
  test.each([
    {
      name: 'a shown field',
      error: new ApiError(409, 'already_member', 'Already.', { email: 'Already a member of this space.' }),
      expected: { error: null, fields: { email: 'Already a member of this space.' } },
    },
    {
      name: 'no field',
      error: new ApiError(403, 'owner_required', 'Only an owner may manage owners.'),
      expected: { error: 'Only an owner may manage owners.', fields: {} },
    },
    {
      name: 'a field the form does not show',
      error: new ApiError(400, 'validation', 'Invalid.', { cursor: 'Bad cursor.' }),
      expected: { error: 'Invalid.', fields: {} },
    },
    {
      name: 'a shown field and one the form does not show',
      error: new ApiError(400, 'validation', 'Invalid.', { email: 'Not an address.', cursor: 'Bad cursor.' }),
      expected: { error: 'Bad cursor.', fields: { email: 'Not an address.' } },
    },
    {
      name: 'a plain error',
      error: new Error('boom'),
      expected: { error: 'boom', fields: {} },
    },
    {
      name: "the form's own check",
      error: new FormProblem({ role: 'Pick a role.' }),
      expected: { error: null, fields: { role: 'Pick a role.' } },
    },
    {
      name: 'a refusal with Retry-After',
      error: new ApiError(429, 'rate_limited', 'Too many attempts.', {}, 150),
      expected: { error: 'Too many attempts. Try again in 3 minute(s).', fields: {} },
    },
  ])('$name gives $expected', ({ error, expected }) => {
    expect(submitErrors(error, ['email', 'role'])).toEqual(expected);
  });

  test('without a list of shown fields, every field goes next to its field', () => {
    const error = new ApiError(400, 'validation', 'Invalid.', { captchaToken: 'Missing.' });
    expect(submitErrors(error)).toEqual({ error: null, fields: { captchaToken: 'Missing.' } });
  });
});

function NameForm({ action }: { readonly action: (name: string) => Promise<void> }) {
  const { pending, error, fields, onSubmit } = useSubmit((form) => action(text(form, 'name')), { fields: ['name'] });
  return (
    <form onSubmit={(event) => void onSubmit(event)} aria-busy={pending}>
      {error && <p role="alert">{error}</p>}
      <input aria-label="Name" name="name" aria-describedby="name-error" />
      <p id="name-error">{fields.name}</p>
      <button type="submit">Save</button>
    </form>
  );
}

describe('useSubmit', () => {
  test('passes the typed values, then puts a shown field next to it and the rest above the form', async () => {
    const action = vi.fn(async () => {
      throw new ApiError(400, 'validation', 'Invalid.', { name: 'Too long.', body: 'Unknown field.' });
    });
    render(<NameForm action={action} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Acme');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(action).toHaveBeenCalledWith('Acme');
    expect(await screen.findByRole('alert')).toHaveTextContent('Unknown field.');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription('Too long.');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Acme');
  });

  test('a success clears the previous errors', async () => {
    const action = vi.fn().mockRejectedValueOnce(new Error('boom')).mockResolvedValueOnce(undefined);
    render(<NameForm action={action} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('boom');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  test('past a plan limit: the message and a link to the plans of the space, even when a field shows it too', async () => {
    history.replaceState(null, '', '/console/firewall/00000000-0000-4000-8000-000000000001');
    const message = 'Firewalls on Free: 1 of 1 used; Pro allows 5';
    const action = vi.fn(async () => {
      throw new ApiError(402, 'plan_limit', message, { name: message }, null, {
        limit: 'firewalls',
        plan: 'free',
        upgradeTo: 'pro',
      });
    });
    render(<NameForm action={action} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`${message} See plans`);
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute(
      'href',
      '/console/subscription/upgrade/00000000-0000-4000-8000-000000000001',
    );
  });
});
