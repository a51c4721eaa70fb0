import { useState } from 'react';
import { executeCaptcha } from '../../lib/captcha.ts';
import { resendActivation } from '../../stores/auth.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { Form } from '../shared/Form.tsx';
import { text, useSubmit } from '../shared/use-submit.ts';

interface Props {
  /** Known address (after registering); otherwise the user types it. */
  readonly email?: string;
}

/** Sends a new activation link; the answer is the same whether the address exists or not. */
export function ResendActivation({ email }: Props) {
  const [answer, setAnswer] = useState<string | null>(null);
  const { pending, error, fields, onSubmit } = useSubmit(
    async (form) => {
      const captchaToken = await executeCaptcha('register');
      setAnswer(
        await resendActivation({ email: email ?? text(form, 'email'), ...(captchaToken ? { captchaToken } : {}) }),
      );
    },
    // A known address is not a field here: a message about it goes above the button.
    { fields: email ? [] : ['email'] },
  );
  return (
    <Form onSubmit={onSubmit} pending={pending}>
      {answer && <Alert tone="success">{answer}</Alert>}
      {error && <Alert tone="error">{error}</Alert>}
      {!email && <Field label="Email" name="email" type="email" autoComplete="email" required error={fields.email} />}
      <button className="button secondary" type="submit" disabled={pending}>
        Send a new activation link
      </button>
    </Form>
  );
}
