/**
 * The JSON text each decoded record arrived as, so storing its raw record does not encode it again: ingest's
 * statement sends the raw records as JSON text, and re-encoding every 1.3 KB record was a sixth of its parsing time.
 * Keyed by the decoded object itself (parsers keep it as the event's `raw` and never change it), so a record made
 * any other way (a wrapper, the syslog line's object) is encoded as before.
 */
const texts = new WeakMap<object, string>();

/**
 * A number PostgreSQL's numeric may refuse (an exponent or a run of digits past its range), where JavaScript decoded
 * it as Infinity or a rounded value: such a record is encoded again, as before (its numbers as JavaScript read them).
 */
const hugeNumber = /[eE][+-]?\d{4,}|\d{5000,}/;

/** Remembers that `value` was decoded from `text`. */
export function rememberRawText(value: unknown, text: string): void {
  if (typeof value === 'object' && value !== null && !hugeNumber.test(text)) texts.set(value, text);
}

/** The JSON text of a raw record: the text it was decoded from, else its encoding. */
export function rawJsonText(value: unknown): string {
  const known = typeof value === 'object' && value !== null ? texts.get(value) : undefined;
  return known ?? JSON.stringify(value ?? null);
}
