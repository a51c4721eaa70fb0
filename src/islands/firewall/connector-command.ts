/** The exact command that runs a firewall's connector (server/connector/README.md), so the screens and the README agree. */
import { apiUrl } from '../../lib/api.ts';

/** Shell variable shown in place of a token that is no longer visible. */
export const CONNECTOR_TOKEN_PLACEHOLDER = '$SPACEGUARD_WAF_TOKEN';

/** The origin the connector calls (the API's, which may differ from the site's). */
export function apiOrigin(): string {
  return new URL(apiUrl('/')).origin;
}

/** `npm run waf -- --api <origin> --token <token> --listen 127.0.0.1:8080`. */
export function connectorCommand(token: string): string {
  return `npm run waf -- --api ${apiOrigin()} --token ${token} --listen 127.0.0.1:8080`;
}
