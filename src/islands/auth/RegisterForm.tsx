import { useState } from 'react';
import { passwordProblem } from '../../../contract/passwords.ts';
import { executeCaptcha } from '../../lib/captcha.ts';
import { register } from '../../stores/auth.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { Form } from '../shared/Form.tsx';
import { PasswordFields } from '../shared/PasswordFields.tsx';
import { FormProblem, text, useSubmit } from '../shared/use-submit.ts';
import { ResendActivation } from './ResendActivation.tsx';

/** Create an account (captcha action `register`), then "check your mail" with the activation link sent. */
function RegisterForm() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { pending, error, fields, onSubmit } = useSubmit(
    async (form) => {
      const password = text(form, 'password');
      const problem = passwordProblem(password);
      if (problem) throw new FormProblem({ password: problem });
      const captchaToken = await executeCaptcha('register');
      const email = text(form, 'email');
      await register({ name: text(form, 'name'), email, password, ...(captchaToken ? { captchaToken } : {}) });
      setSentTo(email);
    },
    { fields: ['name', 'email', 'password'] },
  );
  if (sentTo) {
    return (
      <div className="stack">
        <h2>Check your mail</h2>
        <p>
          We sent an activation link to <strong>{sentTo}</strong>. It is valid for 24 hours and can be used once.
        </p>
        <ResendActivation email={sentTo} />
      </div>
    );
  }
  return (
    <Form onSubmit={onSubmit} pending={pending}>
      {error && <Alert tone="error">{error}</Alert>}
      <Field label="Name" name="name" autoComplete="name" required maxLength={100} error={fields.name} />
      <Field label="Email" name="email" type="email" autoComplete="email" required error={fields.email} />
      <PasswordFields errors={fields} />
      <button className="button" type="submit" disabled={pending}>
        {pending ? 'Creating your account…' : 'Create account'}
      </button>
    </Form>
  );
}

export default withApp(RegisterForm);
