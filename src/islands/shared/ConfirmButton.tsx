import { useEffect, useRef, useState } from 'react';
import './ConfirmButton.css';

interface Props {
  /** Text of the first button, e.g. "Remove". */
  readonly label: string;
  /** Accessible name of the first button when the label alone is ambiguous, e.g. "Remove Ada". */
  readonly ariaLabel?: string | undefined;
  /** The question asked before acting, e.g. "Remove Ada from this space?". */
  readonly question: string;
  /** Text of the confirming button; the label by default. */
  readonly confirmLabel?: string | undefined;
  readonly danger?: boolean | undefined;
  readonly disabled?: boolean | undefined;
  readonly onConfirm: () => unknown;
}

/** A destructive action asked twice, inline and keyboard operable (focus moves to the confirming button). */
export function ConfirmButton({ label, ariaLabel, question, confirmLabel, danger = true, disabled, onConfirm }: Props) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
    else if (wasAsking.current) openerRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <button
        ref={openerRef}
        type="button"
        className="button secondary"
        aria-label={ariaLabel}
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  }
  const confirm = async (): Promise<void> => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset would bring a legend and form semantics this inline prompt does not have
    <span className="sg-confirm" role="group" aria-label={question}>
      <span>{question}</span>
      <button
        ref={confirmRef}
        type="button"
        className={danger ? 'button danger' : 'button'}
        disabled={busy}
        onClick={() => void confirm()}
      >
        {confirmLabel ?? label}
      </button>
      <button type="button" className="button secondary" disabled={busy} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
