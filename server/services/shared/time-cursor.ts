/** Keyset cursors over (time, id), newest first: shared by every list ordered by a timestamp. */
import { and, type Column, eq, lt, or, type SQL } from 'drizzle-orm';
import { timeRange } from '../../../contract/common.ts';
import { fieldError } from '../../errors.ts';

/** The opaque cursor after a row. */
export function encodeTimeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString('base64url');
}

const invalid = 'This cursor is not valid; start from the first page.';
const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads a cursor back. Anything but what `encodeTimeCursor` writes (a tampered cursor too: another shape, a time
 * outside 1970–2200, an id that is no UUID) is a 400 naming `cursor`, never a statement PostgreSQL refuses.
 */
export function decodeTimeCursor(cursor: string): { at: Date; id: string } {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw fieldError('cursor', invalid);
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) throw fieldError('cursor', invalid);
  const [at, id] = decoded as unknown[];
  if (typeof at !== 'string' || !isoTime.test(at) || typeof id !== 'string' || !uuid.test(id)) {
    throw fieldError('cursor', invalid);
  }
  const date = new Date(at);
  const time = date.getTime();
  if (!(time >= timeRange.earliest && time < timeRange.latest)) throw fieldError('cursor', invalid);
  return { at: date, id };
}

/** The rows after a cursor in (time desc, id desc) order. */
export function olderThan(time: Column, id: Column, cursor: string): SQL | undefined {
  const after = decodeTimeCursor(cursor);
  return or(lt(time, after.at), and(eq(time, after.at), lt(id, after.id)));
}
