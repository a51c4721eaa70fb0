/** Keyset cursors over (time, id), newest first: shared by every list ordered by a timestamp. */
import { and, type Column, eq, lt, or, type SQL } from 'drizzle-orm';
import { fieldError } from '../../errors.ts';

/** The opaque cursor after a row. */
export function encodeTimeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString('base64url');
}

/** Reads a cursor back; a malformed one is a 400 naming `cursor`. */
export function decodeTimeCursor(cursor: string): { at: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const date = new Date(at);
    if (Number.isNaN(date.getTime()) || !/^[0-9a-f-]{36}$/i.test(id)) throw new Error('bad cursor');
    return { at: date, id };
  } catch {
    throw fieldError('cursor', 'This cursor is not valid; start from the first page.');
  }
}

/** The rows after a cursor in (time desc, id desc) order. */
export function olderThan(time: Column, id: Column, cursor: string): SQL | undefined {
  const after = decodeTimeCursor(cursor);
  return or(lt(time, after.at), and(eq(time, after.at), lt(id, after.id)));
}
