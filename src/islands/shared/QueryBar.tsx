/**
 * The query bar of the query screens (the event log, WAF discover): the query field with its live check, the screen's
 * own controls beside it, and Search. Every control of the screen applies what the bar shows: `useQueryDraft` keeps
 * the typed text and gives the query a control searches (`applied`), so picking a range, a facet, an order or Refresh
 * after typing never searches the query from before.
 */
import { type FormEvent, type ReactNode, useCallback, useRef, useState } from 'react';
import { useQueryParser } from './event-log-url.ts';
import './query-bar.css';

export interface QueryDraft {
  /** The text in the bar. */
  readonly draft: string;
  readonly setDraft: (text: string) => void;
  /** The text's check in the query language (valid while the parser has not loaded). */
  readonly parsed: ReturnType<typeof useQueryParser>['parsed'];
  /** Loads the parser (on the field's focus and change). */
  readonly load: () => void;
  /** The query a control searches: the bar's text when it is valid, else `searched` (the one the results are for). */
  readonly applied: (searched: string) => string;
}

/** The text of a query bar and its check. */
export function useQueryDraft(): QueryDraft {
  const [draft, setDraft] = useState('');
  const { parsed, load } = useQueryParser(draft);
  // One function for the life of the screen, reading the text of the latest render (callbacks keep it).
  const latest = useRef({ draft, ok: parsed.ok });
  latest.current = { draft, ok: parsed.ok };
  const applied = useCallback((searched: string) => (latest.current.ok ? latest.current.draft.trim() : searched), []);
  return { draft, setDraft, parsed, load, applied };
}

interface Props {
  readonly query: QueryDraft;
  /** The field's id (its help is `${id}-help`). */
  readonly id: string;
  /** The form's accessible name. */
  readonly label: string;
  readonly placeholder: string;
  /** Said under the bar while the query is valid. */
  readonly hint: ReactNode;
  /** Search was pressed with a valid query: search `q`. */
  readonly onSearch: (q: string) => void;
  /** The screen's controls between the field and Search (time range, grouping…). */
  readonly children?: ReactNode;
  readonly className?: string;
}

/** The query field, the screen's controls and Search, with the query's check (or its error, and where) below. */
export function QueryBar({ query, id, label, placeholder, hint, onSearch, children, className }: Props) {
  const { draft, setDraft, parsed, load } = query;
  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (parsed.ok) onSearch(draft.trim());
  };
  return (
    <form className={className ? `sg-query-bar ${className}` : 'sg-query-bar'} aria-label={label} onSubmit={submit}>
      <div className="sg-query-bar__row">
        <div className="field sg-query-bar__query">
          <label htmlFor={id}>Query</label>
          <input
            id={id}
            className="input"
            value={draft}
            spellCheck={false}
            placeholder={placeholder}
            aria-invalid={parsed.ok ? undefined : true}
            aria-describedby={`${id}-help`}
            onFocus={load}
            onChange={(event) => {
              load();
              setDraft(event.target.value);
            }}
          />
        </div>
        {children}
        <button type="submit" className="button" disabled={!parsed.ok}>
          Search
        </button>
      </div>
      <p id={`${id}-help`} className={parsed.ok ? 'field__hint' : 'field__error'}>
        {parsed.ok ? hint : `${parsed.error.message} (at character ${parsed.error.position + 1})`}
      </p>
    </form>
  );
}
