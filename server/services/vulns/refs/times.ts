/**
 * The times of OSV records as the library stores and reads them. Data sets write times of any year; Go's tooling
 * writes its zero time, `0001-01-01T00:00:00Z`, for a time it does not know (the Go vulnerability database's own
 * files carry it in `modified` and often `published`). The library reads that time as unknown: a `modified` it does
 * not know is stored as the zero time itself, so it orders before every real time (any real `modified` replaces it,
 * and it never replaces a real one); an unknown `published` is none, and a zero `withdrawn` is no withdrawal.
 */
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/** Go's zero time, `0001-01-01T00:00:00Z`: no time at all. */
export const zeroTime = Date.parse('0001-01-01T00:00:00Z');

/** The instant of an OSV time, or null for the zero time (and anything before it, which no store holds). */
export function osvInstant(text: string | undefined): Date | null {
  if (text === undefined) return null;
  const at = Date.parse(text);
  return at > zeroTime ? new Date(at) : null;
}

/** A record's `modified` as stored and compared: the zero time when it is unknown. */
export const modifiedAt = (record: { modified: string }): Date => osvInstant(record.modified) ?? new Date(zeroTime);

/** Whether a record is withdrawn: a real `withdrawn` time (Go's zero time is none). */
export const isWithdrawn = (record: { withdrawn?: string | undefined }): boolean =>
  osvInstant(record.withdrawn) !== null;

/** A stored time as the API answers it: RFC 3339, or null for the zero time (unknown). */
export const answerTime = (date: Date | null): string | null =>
  date && date.getTime() > zeroTime ? date.toISOString() : null;

/**
 * Reads a timestamptz column of a record's time as a Date, for any year. The drivers hand timestamps over as
 * PostgreSQL's text (`0001-01-01 00:00:00+00`), which JavaScript reads as the year 2001; milliseconds since the epoch
 * are read the same everywhere. A null stays null (type a nullable column's as `SQL<Date | null>`).
 */
export function instantOf(column: AnyColumn): SQL<Date> {
  return sql`(extract(epoch from ${column}) * 1000)::float8`.mapWith((ms: number | string) => new Date(Number(ms)));
}
