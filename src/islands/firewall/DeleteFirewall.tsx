import { useEffect, useId, useRef, useState } from 'react';
import { deleteFirewall } from '../../stores/firewalls.ts';
import { FormProblem, useSubmit } from '../shared/use-submit.ts';

interface Props {
  readonly spaceId: string;
  readonly id: string;
  readonly name: string;
  readonly onDeleted: (name: string) => void;
}

/** Deletes a firewall after its name is typed; Cancel and Escape close the question and give focus back. */
export function DeleteFirewall({ spaceId, id, name, onDeleted }: Props) {
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) inputRef.current?.focus();
    else if (wasAsking.current) openerRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);
  const submit = useSubmit(async () => {
    if (typed.trim() !== name)
      throw new FormProblem({ confirmName: `Type the firewall's name, ${name}, to delete it.` });
    await deleteFirewall(spaceId, id, typed.trim());
    onDeleted(name);
  });
  if (!asking) {
    return (
      <button
        ref={openerRef}
        type="button"
        className="button secondary"
        aria-label={`Delete ${name}`}
        onClick={() => setAsking(true)}
      >
        Delete
      </button>
    );
  }
  const close = (): void => {
    setAsking(false);
    setTyped('');
  };
  return (
    <form
      className="sg-fw-delete"
      aria-label={`Delete ${name}`}
      noValidate
      onSubmit={(event) => void submit.onSubmit(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') close();
      }}
    >
      <label htmlFor={inputId}>Type {name} to delete it</label>
      <input
        ref={inputRef}
        id={inputId}
        className="input"
        autoComplete="off"
        value={typed}
        aria-invalid={submit.fields.confirmName || submit.error ? true : undefined}
        aria-describedby={submit.fields.confirmName || submit.error ? `${inputId}-error` : undefined}
        onChange={(event) => setTyped(event.currentTarget.value)}
      />
      {(submit.fields.confirmName || submit.error) && (
        <p className="field__error" id={`${inputId}-error`}>
          {submit.fields.confirmName ?? submit.error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="button danger" disabled={submit.pending || typed.trim() !== name}>
          {submit.pending ? 'Deleting…' : 'Delete firewall'}
        </button>
        <button type="button" className="button secondary" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
