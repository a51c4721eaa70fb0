/** A firewall row as the API shows it, and the lookup every firewall operation starts from. */
import { and, eq } from 'drizzle-orm';
import type { ConnectorStatus, Firewall } from '../../../contract/firewalls.ts';
import type { Executor } from '../../db/database.ts';
import { type FirewallRow, firewalls, firewallVersions } from '../../db/schema/firewalls.ts';
import { notFound } from '../../errors.ts';

/** The columns of the connector's last report. */
export const connectorColumns = {
  connectorState: firewalls.connectorState,
  appliedVersion: firewalls.appliedVersion,
  failedVersion: firewalls.failedVersion,
  lastSeenAt: firewalls.lastSeenAt,
  connectorMessage: firewalls.connectorMessage,
};
type ConnectorColumns = Pick<FirewallRow, keyof typeof connectorColumns>;

/** The connector's last report as the API shows it. */
export function connectorView(row: ConnectorColumns): ConnectorStatus {
  return {
    state: row.connectorState,
    appliedVersion: row.appliedVersion,
    ...(row.connectorState === 'failed' && row.failedVersion !== null ? { failedVersion: row.failedVersion } : {}),
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    ...(row.connectorMessage ? { message: row.connectorMessage } : {}),
  };
}

/** A firewall as the API shows it: its settings, newest version, token prefix and connector state. */
export function firewallView(row: FirewallRow): Firewall {
  return {
    ...row.settings,
    id: row.id,
    spaceId: row.spaceId,
    version: row.version,
    tokenPrefix: row.tokenPrefix,
    connector: connectorView(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A firewall of the space, optionally locked until the transaction ends; 404 for one of another space. */
export async function firewallOf(
  db: Executor,
  spaceId: string,
  id: string,
  lock: 'lock' | 'read' = 'read',
): Promise<FirewallRow> {
  const query = db
    .select()
    .from(firewalls)
    .where(and(eq(firewalls.id, id), eq(firewalls.spaceId, spaceId)));
  const [row] = lock === 'lock' ? await query.for('update') : await query;
  if (!row) throw notFound('firewall');
  return row;
}

/** The hash of a firewall's version n, or null when it has none. */
export async function versionHash(db: Executor, firewallId: string, version: number): Promise<string | null> {
  const [row] = await db
    .select({ hash: firewallVersions.hash })
    .from(firewallVersions)
    .where(and(eq(firewallVersions.firewallId, firewallId), eq(firewallVersions.version, version)));
  return row?.hash ?? null;
}
