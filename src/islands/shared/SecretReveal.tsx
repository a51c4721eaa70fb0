import { type ReactNode, useId } from 'react';
import { CopyButton } from './CopyButton.tsx';

interface Props {
  /** The secret, visible this once. */
  readonly secret: string;
  /** What just happened, e.g. "Source “edge” created." */
  readonly title: string;
  /** The field's label, e.g. "Ingest token". */
  readonly label: string;
  /** How the notice names it, e.g. "token" in "Copy the token now". */
  readonly noun: string;
  /** What uses it (a curl line, a command), shown below. */
  readonly children?: ReactNode;
}

/** A freshly issued token (ingest, connector…), shown once with a copy button and what uses it. */
export function SecretReveal({ secret, title, label, noun, children }: Props) {
  const inputId = useId();
  return (
    <div className="sg-token-reveal">
      <p role="status">
        <strong>{title}</strong> Copy the {noun} now: it is shown only this once.
      </p>
      <div className="field">
        <label htmlFor={inputId}>{label}</label>
        <div className="sg-secret-row">
          <input
            id={inputId}
            className="input sg-mono"
            readOnly
            value={secret}
            spellCheck={false}
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton text={secret} label="Copy token" />
        </div>
      </div>
      {children}
    </div>
  );
}
