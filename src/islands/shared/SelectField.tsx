import type { SelectHTMLAttributes } from 'react';
import { FieldFrame } from './FieldFrame.tsx';

interface Props extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  readonly label: string;
  readonly options: readonly { readonly value: string; readonly label: string }[];
  readonly error?: string | undefined;
  readonly hint?: string | undefined;
}

/** A labelled select with hint and error wired for screen readers, like the shared Field. */
export function SelectField({ label, options, error, hint, ...select }: Props) {
  return (
    <FieldFrame label={label} error={error} hint={hint}>
      {(control) => (
        <select {...control} {...select}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}
