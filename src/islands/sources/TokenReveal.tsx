import { SecretReveal } from '../shared/SecretReveal.tsx';
import { IngestCommand } from './IngestCommand.tsx';

interface Props {
  /** The ingest token, visible this once. */
  readonly token: string;
  /** What just happened, e.g. "Source “edge” created." */
  readonly title: string;
}

/** A freshly issued ingest token, shown once, with a copy button and the curl line that uses it. */
export function TokenReveal({ token, title }: Props) {
  return (
    <SecretReveal secret={token} title={title} label="Ingest token" noun="token">
      <IngestCommand token={token} />
    </SecretReveal>
  );
}
