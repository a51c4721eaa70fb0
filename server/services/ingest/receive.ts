/** `POST /api/ingest/{sourceToken}` without HTTP: find the source by its token, parse the batch, store it. */
import { eq } from 'drizzle-orm';
import { ingestLimits } from '../../../contract/constants/events.ts';
import type { LineError, NormalisedEvent } from '../../../contract/events.ts';
import { type SourceRow, sources } from '../../db/schema/sources.ts';
import { type SpaceRow, spaces } from '../../db/schema/spaces.ts';
import type { AppDeps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { hashToken } from '../shared/tokens.ts';
import { BatchFormatError, parseEntries, splitBatch } from './parse-batch.ts';
import { type StoredBatch, storeBatch } from './store.ts';

/** 413 for a batch over the ingest limits (bytes, checked by the route's body limit, or events). */
export function tooLarge(): ApiError {
  return new ApiError(
    413,
    'payload_too_large',
    `An ingest request carries at most ${ingestLimits.bytes / 1024 / 1024} MB and ${ingestLimits.events.toLocaleString('en')} events; split the batch.`,
  );
}

/** Parses a batch line by line for the source the token names and stores the valid lines; answers what happened. */
export async function receiveBatch(
  deps: AppDeps,
  sourceToken: string,
  text: string,
  idempotencyKey: string | null,
): Promise<StoredBatch> {
  const { db } = deps;
  const [found] = await db
    .select({ source: sources, space: spaces })
    .from(sources)
    .innerJoin(spaces, eq(spaces.id, sources.spaceId))
    .where(eq(sources.tokenHash, hashToken(sourceToken)));
  if (!found) throw new ApiError(401, 'bad_source_token', 'Unknown or rotated source token.');
  return receiveForSource(deps, found, text, idempotencyKey);
}

/**
 * Parses a batch line by line for a known source and stores the valid lines: what `POST /api/ingest/{token}` and
 * the connector's `POST /api/connector/events` share. With `firewallId` every event carries that firewall.
 */
export async function receiveForSource(
  deps: AppDeps,
  target: { space: SpaceRow; source: SourceRow; firewallId?: string },
  text: string,
  idempotencyKey: string | null,
): Promise<StoredBatch> {
  let entries: ReturnType<typeof splitBatch>;
  try {
    entries = splitBatch(text);
  } catch (error) {
    if (error instanceof BatchFormatError) throw new ApiError(400, 'bad_batch', error.message);
    throw error;
  }
  if (entries.length > ingestLimits.events) throw tooLarge();

  const now = deps.now();
  const valid: NormalisedEvent[] = [];
  const errors: LineError[] = [];
  const firewallId = target.firewallId;
  for (const result of parseEntries(target.source.kind, entries, now)) {
    if (result.ok) valid.push(firewallId ? { ...result.event, firewallId } : result.event);
    else errors.push({ line: result.line, message: result.message });
  }
  return storeBatch(deps.db, { space: target.space, source: target.source, valid, errors, now, idempotencyKey });
}
