import { useId } from 'react';
import type { Condition } from '../../../contract/firewall-settings.ts';
import { Field } from '../shared/Field.tsx';
import { errorAt, errorUnder, type FieldErrors } from '../shared/field-errors.ts';
import { SelectField } from '../shared/SelectField.tsx';
import {
  fieldOptions,
  operatorOptions,
  operatorsFor,
  parseField,
  parseOperator,
  takesList,
} from './condition-options.ts';

interface Props {
  readonly condition: Condition;
  /** `customRules.1.conditions.0`: where the API's messages for this condition are. */
  readonly path: string;
  readonly label: string;
  readonly errors: FieldErrors;
  readonly onChange: (condition: Condition) => void;
  /** Null when the condition is the rule's only one. */
  readonly onRemove: (() => void) | null;
}

/** The value as the field shows it: several values comma-separated. */
function valueText(value: Condition['value']): string {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** One condition of a custom rule: field, header name, operator, value(s) and negate. */
export function ConditionEditor({ condition, path, label, errors, onChange, onRemove }: Props) {
  const negateId = useId();
  const setValue = (text: string): void => {
    if (!takesList(condition.field)) {
      onChange({ ...condition, value: text });
      return;
    }
    const values = text
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
    onChange({ ...condition, value: values.length > 1 ? values : (values[0] ?? '') });
  };
  return (
    <fieldset className="sg-fw-condition">
      <legend>{label}</legend>
      <div className="sg-fw-grid">
        <SelectField
          label="Field"
          options={fieldOptions}
          value={condition.field}
          onChange={(event) => {
            const field = parseField(event.currentTarget.value) ?? condition.field;
            const operator = operatorsFor(field).includes(condition.operator)
              ? condition.operator
              : (operatorsFor(field)[0] ?? 'equals');
            const { header: _header, ...rest } = condition;
            onChange(field === 'header' ? { ...rest, field, operator, header: '' } : { ...rest, field, operator });
          }}
          error={errorAt(errors, `${path}.field`)}
        />
        {condition.field === 'header' && (
          <Field
            label="Header name"
            value={condition.header ?? ''}
            spellCheck={false}
            onChange={(event) => onChange({ ...condition, header: event.currentTarget.value })}
            hint="Letters, digits and dashes, such as X-Api-Key."
            error={errorAt(errors, `${path}.header`)}
          />
        )}
        <SelectField
          label="Operator"
          options={operatorOptions(condition.field)}
          value={condition.operator}
          onChange={(event) =>
            onChange({ ...condition, operator: parseOperator(event.currentTarget.value) ?? condition.operator })
          }
          error={errorAt(errors, `${path}.operator`)}
        />
        <Field
          label={takesList(condition.field) ? 'Values' : 'Value'}
          value={valueText(condition.value)}
          spellCheck={false}
          onChange={(event) => setValue(event.currentTarget.value)}
          hint={
            condition.field === 'ip'
              ? 'Addresses or CIDR ranges, comma-separated.'
              : condition.field === 'country'
                ? 'Two-letter country codes, comma-separated, such as FR, DE.'
                : condition.operator === 'regex'
                  ? 'A PCRE regular expression, as ModSecurity reads it.'
                  : undefined
          }
          error={errorUnder(errors, `${path}.value`)}
        />
      </div>
      <div className="row">
        <span className="sg-fw-choice">
          <input
            type="checkbox"
            id={negateId}
            checked={condition.negate ?? false}
            onChange={(event) => {
              const { negate: _old, ...rest } = condition;
              onChange(event.currentTarget.checked ? { ...rest, negate: true } : rest);
            }}
          />
          <label htmlFor={negateId}>Not: match when this condition is false</label>
        </span>
        {onRemove && (
          <button type="button" className="button secondary" onClick={onRemove}>
            Remove {label.toLowerCase()}
          </button>
        )}
      </div>
      {errorAt(errors, path) && <p className="field__error">{errorAt(errors, path)}</p>}
    </fieldset>
  );
}
