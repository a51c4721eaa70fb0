import type { z } from 'zod';
import { GenericEvent, type NormalisedEvent } from '../../../contract/events.ts';
import { countryOf } from './geoip.ts';
import { isRecord, type LineResult, lineError } from './types.ts';
import { timeProblem } from './validate.ts';

/** One readable sentence from zod issues: `field: reason; field: reason`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const field = issue.path.map(String).join('.');
      const missing = issue.code === 'invalid_type' && issue.input === undefined;
      const reason = missing ? 'is required' : issue.message;
      return field ? `${field}: ${reason}` : reason;
    })
    .join('; ');
}

/** Maps a valid generic event onto the stored fields; `raw` is the record as received. */
export function fromGeneric(event: GenericEvent, raw: unknown): NormalisedEvent {
  const ip = event.ip?.trim() || null;
  return {
    time: new Date(event.time).toISOString(),
    dedupKey: event.id ?? null,
    ip,
    country: countryOf(ip),
    method: event.method?.toUpperCase() ?? null,
    host: event.host ?? null,
    path: event.path ?? null,
    status: event.status ?? null,
    action: event.action ?? 'logged',
    severity: event.severity ?? 'info',
    ruleIds: event.ruleIds ?? [],
    tags: event.tags ?? [],
    message: event.message ?? null,
    userAgent: event.userAgent ?? null,
    firewallId: event.firewallId ?? null,
    raw,
  };
}

/** Parses the generic event of docs/product.md §7 (only `time` required, unknown fields kept in `raw`). */
export function parseGeneric(value: unknown): LineResult {
  if (!isRecord(value)) return lineError('Expected a JSON object.');
  const parsed = GenericEvent.safeParse(value);
  if (!parsed.success) return lineError(describeIssues(parsed.error));
  const outOfRange = timeProblem(parsed.data.time, 'time');
  if (outOfRange !== null) return lineError(outOfRange);
  return { ok: true, event: fromGeneric(parsed.data, value) };
}
