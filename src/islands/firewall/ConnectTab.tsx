import { useState } from 'react';
import type { Firewall } from '../../../contract/firewalls.ts';
import { errorMessage } from '../../lib/api.ts';
import { rotateFirewallToken } from '../../stores/firewalls.ts';
import { Alert } from '../shared/Alert.tsx';
import { ConfirmButton } from '../shared/ConfirmButton.tsx';
import { ConnectorCommand } from './ConnectorCommand.tsx';
import { ConnectorTokenReveal } from './ConnectorTokenReveal.tsx';

interface Props {
  readonly spaceId: string;
  readonly firewall: Firewall;
  /** Admins and owners rotate the token. */
  readonly editable: boolean;
}

/** How to connect the firewall: its connector token (rotated here, shown once) and the command that runs it. */
export function ConnectTab({ spaceId, firewall, editable }: Props) {
  const [token, setToken] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const rotate = async (): Promise<void> => {
    try {
      const rotated = await rotateFirewallToken(spaceId, firewall.id);
      setToken(rotated.token);
      setProblem(null);
    } catch (error) {
      setProblem(`The token was not rotated: ${errorMessage(error)}`);
    }
  };

  return (
    <section aria-labelledby="sg-fw-token-heading">
      <h3 id="sg-fw-token-heading">Connector token</h3>
      {problem && <Alert tone="error">{problem}</Alert>}
      {token ? (
        <ConnectorTokenReveal token={token} title="New connector token issued; the old one no longer works." />
      ) : (
        <>
          <p>
            The token starts with <code className="sg-mono">{firewall.tokenPrefix}</code>. It was shown once, when the
            firewall was created or its token last rotated.
          </p>
          <ConnectorCommand token={null} />
        </>
      )}
      {editable && (
        <div className="row">
          <ConfirmButton
            label="Rotate token"
            question="Rotate the connector token? The running connector stops receiving versions until it gets the new one."
            confirmLabel="Rotate"
            onConfirm={rotate}
          />
        </div>
      )}
    </section>
  );
}
