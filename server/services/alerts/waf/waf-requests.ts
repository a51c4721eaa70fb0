/**
 * The requests behind a WAF alert, as an analyst reads them: method, host, path and query arguments, and each rule
 * the request matched with ModSecurity's message and matched data, from the event's raw audit record when it has one
 * (a generic event shows its rule ids alone).
 */
import type { Severity } from '../../../../contract/events.ts';
import type { WafRequest } from '../../../../contract/waf.ts';
import type { EventRow } from '../../../db/schema/events.ts';
import { severityOfLevel } from '../../ingest/parse-modsecurity.ts';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Rules that only report the anomaly score: shown after the rules that found something. */
const scoringRules = new Set([949110, 959100, 980130, 980140, 980170]);

/** The query string's arguments of a path or URI, decoded (a malformed escape is kept as it is). */
export function queryArgs(uri: string | null): { name: string; value: string }[] {
  if (!uri) return [];
  const at = uri.indexOf('?');
  if (at < 0) return [];
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return text;
    }
  };
  return uri
    .slice(at + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .slice(0, 50)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0
        ? { name: decode(pair), value: '' }
        : { name: decode(pair.slice(0, eq)), value: decode(pair.slice(eq + 1)) };
    });
}

/** The matched rules of a ModSecurity record's messages, attacks first. */
function rulesOfRecord(raw: unknown): WafRequest['rules'] | null {
  if (!isRecord(raw) || !isRecord(raw.transaction) || !Array.isArray(raw.transaction.messages)) return null;
  const rules: WafRequest['rules'] = [];
  for (const entry of raw.transaction.messages) {
    if (!isRecord(entry)) continue;
    const details = isRecord(entry.details) ? entry.details : {};
    const id = Number(details.ruleId);
    if (!Number.isInteger(id) || id <= 0) continue;
    const level = Number(details.severity);
    const severity: Severity | null =
      details.severity === undefined || Number.isNaN(level) ? null : severityOfLevel(level);
    rules.push({
      id,
      message: typeof entry.message === 'string' && entry.message !== '' ? entry.message : null,
      data: typeof details.data === 'string' && details.data !== '' ? details.data : null,
      severity,
    });
  }
  return rules.sort((a, b) => Number(scoringRules.has(a.id)) - Number(scoringRules.has(b.id)));
}

/** The URI a ModSecurity record's request asked for. */
function uriOfRecord(raw: unknown): string | null {
  if (!isRecord(raw) || !isRecord(raw.transaction) || !isRecord(raw.transaction.request)) return null;
  const uri = raw.transaction.request.uri;
  return typeof uri === 'string' ? uri : null;
}

/** One event and its raw record as a WAF request. */
export function wafRequestOf(event: EventRow, raw: unknown): WafRequest {
  const uri = uriOfRecord(raw) ?? event.path;
  return {
    eventId: event.id,
    time: event.time.toISOString(),
    ip: event.ip,
    method: event.method,
    host: event.host,
    // The path without its query string: the arguments are listed one by one.
    path: uri === null ? null : (uri.split('?')[0] ?? uri),
    args: queryArgs(uri),
    status: event.status,
    action: event.action,
    rules: rulesOfRecord(raw) ?? event.ruleIds.map((id) => ({ id, message: null, data: null, severity: null })),
  };
}
