import { useId } from 'react';
import { CopyButton } from '../shared/CopyButton.tsx';
import { IngestCommand } from './IngestCommand.tsx';

interface Props {
  /** The ingest token, visible this once. */
  readonly token: string;
  /** What just happened, e.g. "Source “edge” created." */
  readonly title: string;
}

/** A freshly issued ingest token, shown once, with a copy button and the curl line that uses it. */
export function TokenReveal({ token, title }: Props) {
  const inputId = useId();
  return (
    <div className="sg-token-reveal">
      <p role="status">
        <strong>{title}</strong> Copy the token now: it is shown only this once.
      </p>
      <div className="field">
        <label htmlFor={inputId}>Ingest token</label>
        <div className="sg-secret-row">
          <input
            id={inputId}
            className="input sg-mono"
            readOnly
            value={token}
            spellCheck={false}
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton text={token} label="Copy token" />
        </div>
      </div>
      <IngestCommand token={token} />
    </div>
  );
}
