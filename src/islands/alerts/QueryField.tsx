import { useId, useMemo } from 'react';
import { alertLimits } from '../../../contract/constants/alerts.ts';
import { parseQuery } from '../../../contract/query/parse.ts';

interface Props {
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** The API's message for the field, shown when the typed query parses. */
  readonly error?: string | undefined;
}

/** The rule's query in the event log's language, checked by the event log's own parser as it is typed. */
export function QueryField({ value, onChange, error }: Props) {
  const id = useId();
  const parsed = useMemo(() => (value.trim() === '' ? null : parseQuery(value)), [value]);
  const problem = parsed && !parsed.ok ? `${parsed.error.message} (at character ${parsed.error.position + 1})` : error;
  return (
    <div className="field">
      <label htmlFor={id}>Query</label>
      <input
        id={id}
        className="sg-mono"
        value={value}
        spellCheck={false}
        autoComplete="off"
        maxLength={alertLimits.queryLength}
        placeholder="tag:attack-sqli action:blocked"
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
      <p className="field__hint" id={`${id}-hint`}>
        The event log's query language; empty matches every event.
      </p>
      {problem && (
        <p className="field__error" id={`${id}-error`}>
          {problem}
        </p>
      )}
    </div>
  );
}
