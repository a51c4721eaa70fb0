import { ingestLimits } from '../../../contract/constants/events.ts';
import { CommandFigure } from '../shared/CommandFigure.tsx';
import { curlLine, TOKEN_PLACEHOLDER } from './ingest-command.ts';

// "10 000 events and 10 MB", as the README says it.
const LIMITS = `${ingestLimits.events.toLocaleString('en').replaceAll(',', ' ')} events and ${ingestLimits.bytes / 1024 / 1024} MB`;

interface Props {
  /** The token when it is visible (just created or rotated); null shows the placeholder. */
  readonly token: string | null;
}

/** The exact curl line that sends an NDJSON file of events to the source, with a copy button. */
export function IngestCommand({ token }: Props) {
  return (
    <CommandFigure caption="Send events with curl" line={curlLine(token ?? TOKEN_PLACEHOLDER)}>
      One JSON object per line (NDJSON) or a JSON array; up to {LIMITS} a request.
      {token === null &&
        ` The token was shown once, when the source was created or its token last rotated: set ${TOKEN_PLACEHOLDER} to it, or rotate the token to get a new one.`}
    </CommandFigure>
  );
}
