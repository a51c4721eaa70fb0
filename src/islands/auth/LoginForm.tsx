import { executeCaptcha } from '../../lib/captcha.ts';
import { signIn } from '../../stores/auth.ts';
import { safeNext } from '../../stores/session.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { Form } from '../shared/Form.tsx';
import { text, useSubmit } from '../shared/use-submit.ts';

/** Sign in with email and password (captcha action `login`), then on to `next` or /auth/landing. */
function LoginForm() {
  const { pending, error, fields, onSubmit } = useSubmit(
    async (form) => {
      const captchaToken = await executeCaptcha('login');
      await signIn({
        email: text(form, 'email'),
        password: text(form, 'password'),
        ...(captchaToken ? { captchaToken } : {}),
      });
      location.assign(safeNext(new URLSearchParams(location.search).get('next')));
    },
    { fields: ['email', 'password'] },
  );
  return (
    <Form onSubmit={onSubmit} pending={pending}>
      {error && <Alert tone="error">{error}</Alert>}
      <Field label="Email" name="email" type="email" autoComplete="email" required error={fields.email} />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        error={fields.password}
      />
      <button className="button" type="submit" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
      <p className="row auth-links">
        <a href="/auth/forgot">Forgot your password?</a>
        <a href="/auth/register">Create an account</a>
      </p>
    </Form>
  );
}

export default withApp(LoginForm);
