import { useState } from 'react';
import { passwordProblem } from '../../../contract/passwords.ts';
import { resetPassword } from '../../stores/auth.ts';
import { $route } from '../../stores/route.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Form } from '../shared/Form.tsx';
import { PasswordFields } from '../shared/PasswordFields.tsx';
import { FormProblem, text, useSubmit } from '../shared/use-submit.ts';

/** Chooses a new password with the mailed token (single use, 1 h); every other session ends. */
function ResetForm() {
  const [done, setDone] = useState(false);
  const { pending, error, fields, onSubmit } = useSubmit(
    async (form) => {
      const password = text(form, 'password');
      const problem = passwordProblem(password);
      if (problem) throw new FormProblem({ password: problem });
      if (password !== text(form, 'confirm')) throw new FormProblem({ confirm: 'The two passwords are not the same.' });
      await resetPassword({ token: $route.get()?.params.token ?? '', password });
      setDone(true);
    },
    { fields: ['token', 'password', 'confirm'] },
  );
  if (done) {
    return (
      <Alert tone="success">
        Your password is changed and every other session is signed out. <a href="/auth/login">Sign in</a>
      </Alert>
    );
  }
  return (
    <Form onSubmit={onSubmit} pending={pending}>
      {error && (
        <Alert tone="error">
          {error} <a href="/auth/forgot">Ask for a new link</a>
        </Alert>
      )}
      {fields.token && (
        <Alert tone="error">
          {fields.token} <a href="/auth/forgot">Ask for a new link</a>
        </Alert>
      )}
      <PasswordFields errors={fields} confirm />
      <button className="button" type="submit" disabled={pending}>
        Change password
      </button>
    </Form>
  );
}

export default withApp(ResetForm);
