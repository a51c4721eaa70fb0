import { CommandFigure } from '../shared/CommandFigure.tsx';
import { CONNECTOR_TOKEN_PLACEHOLDER, connectorCommand } from './connector-command.ts';

interface Props {
  /** The token when it is visible (just created or rotated); null shows the placeholder. */
  readonly token: string | null;
}

/** The exact command that runs the firewall's connector and a private nginx, with a copy button. */
export function ConnectorCommand({ token }: Props) {
  return (
    <CommandFigure caption="Run the connector" line={connectorCommand(token ?? CONNECTOR_TOKEN_PLACEHOLDER)}>
      Run it from a Spaceguard checkout on the machine in front of your application: it starts a private nginx with
      ModSecurity and the OWASP CRS on 127.0.0.1:8080 and applies each saved version within seconds.
      {token === null &&
        ` The token was shown once, when the firewall was created or its token last rotated: set ${CONNECTOR_TOKEN_PLACEHOLDER} to it, or rotate the token to get a new one.`}
    </CommandFigure>
  );
}
