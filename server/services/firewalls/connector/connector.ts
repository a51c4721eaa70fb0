/**
 * The connector's side of a firewall, authenticated by the firewall's token: pull the newest
 * version's files (ETag, 304, long poll), report whether a version applied, and ship ModSecurity audit records.
 */
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ConnectorConfig, ConnectorStatus, ConnectorStatusBody } from '../../../../contract/firewalls.ts';
import { type FirewallRow, firewalls, firewallVersions } from '../../../db/schema/firewalls.ts';
import { type SourceRow, sources } from '../../../db/schema/sources.ts';
import { spaces } from '../../../db/schema/spaces.ts';
import type { AppDeps } from '../../../deps.ts';
import { ApiError, fieldError } from '../../../errors.ts';
import { type Actor, recordActivity } from '../../activity/record.ts';
import { receiveForSource } from '../../ingest/receive.ts';
import type { StoredBatch } from '../../ingest/store.ts';
import { hashToken, randomToken } from '../../shared/tokens.ts';
import { recompileStale } from '../expiry.ts';
import { connectorColumns, connectorView, versionHash } from '../view.ts';
import { announceVersion, waitForVersion } from './version-signal.ts';

/** A connector's request: the dependencies, the `Authorization` header, who calls from where, and its abort signal. */
export type ConnectorCall = { deps: AppDeps; authorization: string | undefined; actor: Actor; abort?: AbortSignal };

/** The config answer: the files with their ETag, or 304 when the caller already has them. */
export type ConfigAnswer = { status: 200; etag: string; config: ConnectorConfig } | { status: 304; etag: string };

const badToken = () => new ApiError(401, 'bad_firewall_token', 'Unknown or rotated firewall token.');

/** The token of `Authorization: Bearer TOKEN`; 401 without one (checked before the body is read, too). */
export function bearer(authorization: string | undefined): string {
  const token = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
  if (!token) throw new ApiError(401, 'unauthenticated', 'Send the firewall token as `Authorization: Bearer <token>`.');
  return token;
}

/** What the connector's calls read of their firewall (not its settings, which may hold 20 000 IP entries). */
const callColumns = {
  id: firewalls.id,
  spaceId: firewalls.spaceId,
  version: firewalls.version,
  tokenHash: firewalls.tokenHash,
  appliedVersion: firewalls.appliedVersion,
};
type CallRow = Pick<FirewallRow, keyof typeof callColumns>;

/** The firewall whose token the connector sends; 401 for an unknown or rotated one. Marks it seen. */
async function firewallOfCall(call: ConnectorCall): Promise<CallRow> {
  const { db, now } = call.deps;
  const [row] = await db
    .update(firewalls)
    .set({ lastSeenAt: now() })
    .where(eq(firewalls.tokenHash, hashToken(bearer(call.authorization))))
    .returning(callColumns);
  if (!row) throw badToken();
  return row;
}

/** The newest version's hash and files of a firewall, while its token is still `tokenHash`. */
async function newest(call: ConnectorCall, row: CallRow) {
  const [found] = await call.deps.db
    .select({
      version: firewallVersions.version,
      hash: firewallVersions.hash,
      files: firewallVersions.files,
      staleAt: firewallVersions.staleAt,
    })
    .from(firewalls)
    .innerJoin(
      firewallVersions,
      and(eq(firewallVersions.firewallId, firewalls.id), eq(firewallVersions.version, firewalls.version)),
    )
    .where(and(eq(firewalls.id, row.id), eq(firewalls.tokenHash, row.tokenHash)));
  return found ?? null;
}

/** The entity tags of an `If-None-Match` header, without quotes or weak markers (`*` stays `*`). */
function etagsOf(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((tag) =>
      tag
        .trim()
        .replace(/^W\//, '')
        .replace(/^"(.*)"$/, '$1'),
    )
    .filter(Boolean);
}

/**
 * The newest version's files. With `If-None-Match` naming them, 304; with `wait` seconds as well, the request is
 * held until a newer version exists (answered at once when one is saved, here or by another API process) and
 * answers 304 only when the wait ends without one.
 */
export async function connectorConfig(
  call: ConnectorCall,
  input: { wait?: number | undefined; ifNoneMatch?: string | undefined },
): Promise<ConfigAnswer> {
  const row = await firewallOfCall(call);
  const known = etagsOf(input.ifNoneMatch);
  const current = (found: { hash: string } | null) =>
    found !== null && (known.includes(found.hash) || known.includes('*'));
  // The newest version, compiled anew first when an IP list entry expired since its files were made.
  const read = async () => {
    const newestNow = await newest(call, row);
    if (!newestNow?.staleAt || newestNow.staleAt > call.deps.now()) return newestNow;
    await recompileStale(call.deps, row.id);
    return newest(call, row);
  };
  let found = await read();
  if (current(found) && input.wait) {
    const waitMs = input.wait * 1000;
    // Wake the wait when the files go stale, so the new version travels then.
    const staleIn = found?.staleAt ? Math.max(0, found.staleAt.getTime() - call.deps.now().getTime()) : null;
    const firewallId = row.id;
    const timer = staleIn !== null && staleIn < waitMs ? setTimeout(() => announceVersion(firewallId), staleIn) : null;
    try {
      await waitForVersion(
        call.deps.db,
        row.id,
        waitMs,
        async () => {
          found = await read();
          return !current(found);
        },
        call.abort,
      );
    } finally {
      if (timer) clearTimeout(timer);
    }
  }
  // Deleted, or its token rotated, while the request waited.
  if (!found) throw badToken();
  const etag = `"${found.hash}"`;
  if (current(found)) return { status: 304, etag };
  return {
    status: 200,
    etag,
    config: { firewallId: row.id, version: found.version, hash: found.hash, files: found.files },
  };
}

/** Records the connector's report: a version applied (it now serves) or failed (the last good one keeps serving). */
export async function reportStatus(
  call: ConnectorCall,
  input: z.infer<typeof ConnectorStatusBody>,
): Promise<ConnectorStatus> {
  const row = await firewallOfCall(call);
  if (input.version > row.version) {
    throw fieldError('version', `This firewall has no version ${input.version} yet; its newest is ${row.version}.`);
  }
  const applied = input.state === 'applied';
  const updated = await call.deps.db.transaction(async (tx) => {
    // Locked first, so a save committing meanwhile either is read here or reads this report (`changeFirewallSettings`).
    const [locked] = await tx
      .select({ version: firewalls.version })
      .from(firewalls)
      .where(eq(firewalls.id, row.id))
      .for('update');
    if (!locked) throw badToken();
    // The newest version compiled to the very files applied (a rollback or a save that changed nothing since): the
    // connector serves it too, and will not be sent it, since it already holds that hash.
    const same =
      applied &&
      locked.version > input.version &&
      (await versionHash(tx, row.id, locked.version)) === (await versionHash(tx, row.id, input.version));
    const [written] = await tx
      .update(firewalls)
      .set({
        connectorState: input.state,
        ...(applied ? { appliedVersion: same ? locked.version : input.version } : {}),
        failedVersion: applied ? null : input.version,
        connectorMessage: input.message ?? null,
      })
      .where(eq(firewalls.id, row.id))
      .returning(connectorColumns);
    return written;
  });
  if (!updated) throw badToken();
  return connectorView(updated);
}

/** The firewall's log source (kind modsecurity, named after it), made on its first batch or after it was deleted. */
async function sourceOfFirewall(call: ConnectorCall, firewallId: string): Promise<SourceRow> {
  return call.deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(firewalls).where(eq(firewalls.id, firewallId)).for('update');
    if (!row) throw badToken();
    if (row.sourceId) {
      const [source] = await tx.select().from(sources).where(eq(sources.id, row.sourceId));
      if (source) return source;
    }
    const now = call.deps.now();
    // Its own token is never shown: the connector sends with the firewall's; rotating it on the source page gives one.
    const token = randomToken('sgi_');
    const [source] = await tx
      .insert(sources)
      .values({
        spaceId: row.spaceId,
        name: row.name,
        kind: 'modsecurity',
        tokenHash: hashToken(token),
        tokenPrefix: token.slice(0, 10),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!source) throw new Error('insert returned nothing');
    await tx.update(firewalls).set({ sourceId: source.id }).where(eq(firewalls.id, row.id));
    await recordActivity(
      tx,
      { ...call.actor, name: `Connector of firewall ${row.name}` },
      {
        spaceId: row.spaceId,
        action: 'source.create',
        objectType: 'source',
        objectId: source.id,
        change: { name: source.name, kind: source.kind, firewallId: row.id },
      },
    );
    return source;
  });
}

/**
 * Stores ModSecurity v3 JSON audit records as `POST /api/ingest/{token}` does (same validation, per-line errors,
 * limits, quota and `Idempotency-Key`), under the firewall's log source, each event carrying the firewall's id.
 */
export async function receiveConnectorEvents(
  call: ConnectorCall,
  text: string,
  idempotencyKey: string | null,
): Promise<StoredBatch> {
  const row = await firewallOfCall(call);
  const source = await sourceOfFirewall(call, row.id);
  const [space] = await call.deps.db.select().from(spaces).where(eq(spaces.id, row.spaceId));
  if (!space) throw badToken();
  return receiveForSource(call.deps, { space, source, firewallId: row.id }, text, idempotencyKey);
}
