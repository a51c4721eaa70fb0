import { type AlertGroupField, alertGroupFields, alertLimits } from '../../../contract/constants/alerts.ts';

interface Props {
  readonly value: readonly AlertGroupField[];
  readonly onChange: (value: AlertGroupField[]) => void;
  readonly error?: string | undefined;
}

/** The fields a rule groups by (one alert per combination), up to three, in the order they were ticked. */
export function GroupByField({ value, onChange, error }: Props) {
  const full = value.length >= alertLimits.groupFields;
  return (
    <fieldset className="sg-al-checks sg-al-groupby" aria-describedby={error ? 'sg-al-groupby-error' : undefined}>
      <legend>Group by (up to {alertLimits.groupFields} fields)</legend>
      {alertGroupFields.map((field) => {
        const checked = value.includes(field);
        return (
          <label key={field}>
            <input
              type="checkbox"
              checked={checked}
              disabled={!checked && full}
              onChange={(event) =>
                onChange(event.currentTarget.checked ? [...value, field] : value.filter((item) => item !== field))
              }
            />{' '}
            {field}
          </label>
        );
      })}
      {error && (
        <p className="field__error" id="sg-al-groupby-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
