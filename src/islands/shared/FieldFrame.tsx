import { type ReactNode, useId } from 'react';

/** What a control inside the frame carries so its label, hint and error reach screen readers. */
export interface ControlProps {
  readonly id: string;
  readonly 'aria-invalid': true | undefined;
  readonly 'aria-describedby': string | undefined;
}

interface Props {
  readonly label: string;
  /** The API's or the form's message for this field. */
  readonly error?: string | undefined;
  readonly hint?: string | undefined;
  readonly children: (control: ControlProps) => ReactNode;
}

/** The label, hint and error around one form control: Field and SelectField draw their control inside it. */
export function FieldFrame({ label, error, hint, children }: Props) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
