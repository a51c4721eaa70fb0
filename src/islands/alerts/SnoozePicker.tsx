import { useId } from 'react';
import { SNOOZE_PRESETS, type SnoozeChoice } from './snooze.ts';

interface Props {
  readonly choice: SnoozeChoice;
  /** The `datetime-local` value used when the choice is `custom`. */
  readonly local: string;
  readonly onChange: (choice: SnoozeChoice, local: string) => void;
  readonly error?: string | undefined;
}

const CHOICES: readonly { value: SnoozeChoice; label: string }[] = [
  ...SNOOZE_PRESETS.map((preset) => ({ value: preset.id, label: preset.label })),
  { value: 'custom', label: 'Until a date and time' },
];

const parseChoice = (value: string): SnoozeChoice => CHOICES.find((item) => item.value === value)?.value ?? '1h';

/** How long to snooze: a preset, or a date and time in the user's zone. */
export function SnoozePicker({ choice, local, onChange, error }: Props) {
  const id = useId();
  return (
    <div className="sg-al-snooze">
      <div className="field">
        <label htmlFor={`${id}-for`}>Snooze for</label>
        <select
          id={`${id}-for`}
          value={choice}
          onChange={(event) => onChange(parseChoice(event.currentTarget.value), local)}
        >
          {CHOICES.map((item) => (
            <option key={item.value} value={item.value}>
              {item.label}
            </option>
          ))}
        </select>
      </div>
      {choice === 'custom' && (
        <div className="field">
          <label htmlFor={`${id}-until`}>Snooze until</label>
          <input
            id={`${id}-until`}
            type="datetime-local"
            value={local}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => onChange(choice, event.currentTarget.value)}
          />
          {error && (
            <p className="field__error" id={`${id}-error`}>
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
