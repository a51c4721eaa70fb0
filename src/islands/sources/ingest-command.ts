/** The exact command a source's owner runs to send events, so the screens and the README agree. */
import { ingestAddress } from '../../stores/sources.ts';

/** Shell variable shown in place of a token that is no longer visible. */
export const TOKEN_PLACEHOLDER = '$SPACEGUARD_TOKEN';

/** Absolute ingest URL of a token, under the configured API base. */
export function ingestUrl(token: string): string {
  // The token is URL-safe; the placeholder must stay readable as a shell variable.
  const sourceToken = token === TOKEN_PLACEHOLDER ? token : encodeURIComponent(token);
  return ingestAddress(sourceToken);
}

/** The curl line that posts an NDJSON file of events to a source's ingest URL. */
export function curlLine(token: string): string {
  return `curl -X POST --data-binary @events.ndjson -H 'Content-Type: application/x-ndjson' ${ingestUrl(token)}`;
}
