import { SecretReveal } from '../shared/SecretReveal.tsx';
import { ConnectorCommand } from './ConnectorCommand.tsx';

interface Props {
  /** The connector token, visible this once. */
  readonly token: string;
  /** What just happened, e.g. "Firewall “shop” created." */
  readonly title: string;
}

/** A freshly issued connector token, shown once, with a copy button and the command that uses it. */
export function ConnectorTokenReveal({ token, title }: Props) {
  return (
    <SecretReveal secret={token} title={title} label="Connector token" noun="connector token">
      <ConnectorCommand token={token} />
    </SecretReveal>
  );
}
