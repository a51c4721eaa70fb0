import type { TextareaHTMLAttributes } from 'react';
import { FieldFrame } from './FieldFrame.tsx';

interface Props extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  readonly label: string;
  readonly error?: string | undefined;
  readonly hint?: string | undefined;
}

/** A labelled textarea with hint and error wired for screen readers, like the shared Field. */
export function TextAreaField({ label, error, hint, ...area }: Props) {
  return (
    <FieldFrame label={label} error={error} hint={hint}>
      {(control) => <textarea className="input" {...control} {...area} />}
    </FieldFrame>
  );
}
