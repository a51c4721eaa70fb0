import type { InputHTMLAttributes } from 'react';
import { FieldFrame } from './FieldFrame.tsx';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  readonly label: string;
  /** The API's or the form's message for this field. */
  readonly error?: string | undefined;
  readonly hint?: string | undefined;
}

/** A labelled input with its hint and error wired for screen readers. */
export function Field({ label, error, hint, ...input }: Props) {
  return (
    <FieldFrame label={label} error={error} hint={hint}>
      {(control) => <input {...control} {...input} />}
    </FieldFrame>
  );
}
