import type { NormalisedEvent } from '../../../contract/events.ts';

/** What a parser makes of one line: a normalised event, or the reason it was refused. */
export type LineResult = { ok: true; event: NormalisedEvent } | { ok: false; message: string };

/** A refused line with its reason. */
export function lineError(message: string): LineResult {
  return { ok: false, message };
}

/** A plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
