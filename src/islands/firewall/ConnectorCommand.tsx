import { useId } from 'react';
import { CopyButton } from '../shared/CopyButton.tsx';
import { CONNECTOR_TOKEN_PLACEHOLDER, connectorCommand } from './connector-command.ts';

interface Props {
  /** The token when it is visible (just created or rotated); null shows the placeholder. */
  readonly token: string | null;
}

/** The exact command that runs the firewall's connector and a private nginx, with a copy button. */
export function ConnectorCommand({ token }: Props) {
  const captionId = useId();
  const line = connectorCommand(token ?? CONNECTOR_TOKEN_PLACEHOLDER);
  return (
    <figure className="sg-command" aria-labelledby={captionId}>
      <figcaption id={captionId}>Run the connector</figcaption>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long command scrolls sideways and must be reachable by keyboard */}
      <pre className="sg-command__line" tabIndex={0}>
        <code>{line}</code>
      </pre>
      <div className="row">
        <CopyButton text={line} label="Copy command" />
      </div>
      <p className="muted sg-command__note">
        Run it from a Spaceguard checkout on the machine in front of your application: it starts a private nginx with
        ModSecurity and the OWASP CRS on 127.0.0.1:8080 and applies each saved version within seconds.
        {token === null &&
          ` The token was shown once, when the firewall was created or its token last rotated: set ${CONNECTOR_TOKEN_PLACEHOLDER} to it, or rotate the token to get a new one.`}
      </p>
    </figure>
  );
}
