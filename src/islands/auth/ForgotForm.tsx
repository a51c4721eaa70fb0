import { useState } from 'react';
import { executeCaptcha } from '../../lib/captcha.ts';
import { askPasswordReset } from '../../stores/auth.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { Form } from '../shared/Form.tsx';
import { text, useSubmit } from '../shared/use-submit.ts';

/** Asks for a reset link (captcha action `forgot`); the answer never tells whether the address exists. */
function ForgotForm() {
  const [answer, setAnswer] = useState<string | null>(null);
  const { pending, error, fields, onSubmit } = useSubmit(
    async (form) => {
      const captchaToken = await executeCaptcha('forgot');
      setAnswer(await askPasswordReset({ email: text(form, 'email'), ...(captchaToken ? { captchaToken } : {}) }));
    },
    { fields: ['email'] },
  );
  return (
    <Form onSubmit={onSubmit} pending={pending}>
      {answer && <Alert tone="success">{answer}</Alert>}
      {error && <Alert tone="error">{error}</Alert>}
      <Field label="Email" name="email" type="email" autoComplete="email" required error={fields.email} />
      <button className="button" type="submit" disabled={pending}>
        Send me a reset link
      </button>
      <p className="auth-links">
        <a href="/auth/login">Back to sign in</a>
      </p>
    </Form>
  );
}

export default withApp(ForgotForm);
