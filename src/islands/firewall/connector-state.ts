/** The connector's last report about a firewall, in words. */
import type { ConnectorStatus } from '../../../contract/firewalls.ts';

/** "version 7 applied", "version 8 failed: <message>" or "never connected". */
export function connectorText(connector: ConnectorStatus): string {
  if (connector.state === 'never') return 'never connected';
  if (connector.state === 'failed') {
    const failed = connector.failedVersion ? `version ${connector.failedVersion} failed` : 'failed';
    const serving = connector.appliedVersion ? ` (version ${connector.appliedVersion} keeps serving)` : '';
    return `${failed}: ${connector.message ?? 'no message'}${serving}`;
  }
  return `version ${connector.appliedVersion ?? '?'} applied`;
}
