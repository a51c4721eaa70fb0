import { Field } from '../shared/Field.tsx';
import { numberText, wholeNumber } from './number-input.ts';

interface Props {
  readonly label: string;
  readonly value: number;
  readonly onChange: (value: number) => void;
  readonly hint?: string | undefined;
  readonly error?: string | undefined;
}

/** A whole-number field of the firewall forms: blank for 0, the API naming the field when the number breaks its rule. */
export function NumberField({ label, value, onChange, hint, error }: Props) {
  return (
    <Field
      label={label}
      type="number"
      inputMode="numeric"
      value={numberText(value)}
      onChange={(event) => onChange(wholeNumber(event.currentTarget.value))}
      hint={hint}
      error={error}
    />
  );
}
