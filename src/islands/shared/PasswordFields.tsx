import { useState } from 'react';
import { Field } from '../shared/Field.tsx';
import { passwordVerdict } from './password-strength.ts';

interface Props {
  readonly errors: Readonly<Record<string, string>>;
  /** Ask for the password twice (reset). */
  readonly confirm?: boolean;
}

/** New password with its strength shown as the user types (same rules as the API), optionally twice. */
export function PasswordFields({ errors, confirm = false }: Props) {
  const [value, setValue] = useState('');
  const verdict = passwordVerdict(value);
  return (
    <>
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        value={value}
        onChange={(event) => setValue(event.target.value)}
        hint={value === '' ? 'At least 10 characters, mixing letters with digits or symbols.' : verdict.label}
        error={errors.password}
      />
      <meter
        className="strength"
        min={0}
        max={4}
        low={2}
        high={3}
        optimum={4}
        value={verdict.score}
        aria-label="Password strength"
      >
        {verdict.label}
      </meter>
      {confirm && (
        <Field
          label="Repeat the password"
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          error={errors.confirm}
        />
      )}
    </>
  );
}
