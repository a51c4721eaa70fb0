import { useId } from 'react';
import { CopyButton } from '../shared/CopyButton.tsx';
import { ConnectorCommand } from './ConnectorCommand.tsx';

interface Props {
  /** The connector token, visible this once. */
  readonly token: string;
  /** What just happened, e.g. "Firewall “shop” created." */
  readonly title: string;
}

/** A freshly issued connector token, shown once, with a copy button and the command that uses it. */
export function ConnectorTokenReveal({ token, title }: Props) {
  const inputId = useId();
  return (
    <div className="sg-token-reveal">
      <p role="status">
        <strong>{title}</strong> Copy the connector token now: it is shown only this once.
      </p>
      <div className="field">
        <label htmlFor={inputId}>Connector token</label>
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
      <ConnectorCommand token={token} />
    </div>
  );
}
