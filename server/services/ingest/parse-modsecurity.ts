import { severities } from '../../../contract/constants/events.ts';
import type { EventAction, NormalisedEvent, Severity } from '../../../contract/events.ts';
import { countryOf } from './geoip.ts';
import { isRecord, type LineResult, lineError } from './types.ts';
import { timeProblem } from './validate.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** CRS rules that report the anomaly score rather than an attack. */
const anomalyRules = new Set([949110, 959100, 980130, 980140, 980170]);
/** Rules whose firing means the request or response was refused for its anomaly score. */
const blockingRules = new Set([949110, 959100]);

/** ModSecurity's asctime `Sat Nov 21 22:39:27 2026` (day possibly space-padded), read as UTC. */
export function parseAsctime(value: string): Date | null {
  const m = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/.exec(value.trim());
  if (!m) return null;
  const month = months.indexOf(m[1] ?? '');
  if (month < 0) return null;
  const [day, h, min, s, y] = [m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number];
  const date = new Date(Date.UTC(y, month, day, h, min, s));
  // Date.UTC reads years 0-99 as 1900-1999: set the year itself.
  date.setUTCFullYear(y);
  // Date.UTC rolls over (Feb 31 → Mar 3): refuse what does not round-trip.
  if (date.getUTCFullYear() !== y || date.getUTCDate() !== day || date.getUTCHours() !== h || min > 59 || s > 59)
    return null;
  return date;
}

/** ModSecurity severities 0-7 (syslog levels) onto the product's five. */
export function severityOfLevel(level: number): Severity {
  if (level <= 2) return 'critical';
  if (level === 3) return 'high';
  if (level === 4) return 'medium';
  if (level === 5) return 'low';
  return 'info';
}

function header(headers: unknown, name: string): string | null {
  if (!isRecord(headers)) return null;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  }
  return null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

type Message = { ruleId: number | null; level: number | null; tags: string[]; message: string | null };

function readMessage(entry: unknown, index: number): Message | string {
  if (!isRecord(entry)) return `transaction.messages[${index}] must be an object.`;
  const details = isRecord(entry.details) ? entry.details : {};
  let ruleId: number | null = null;
  if (details.ruleId !== undefined && details.ruleId !== '') {
    ruleId = Number(details.ruleId);
    if (!Number.isInteger(ruleId) || ruleId < 0 || ruleId > 2_147_483_647) {
      return `transaction.messages[${index}].details.ruleId must be a rule number, got ${JSON.stringify(details.ruleId)}.`;
    }
  }
  let level: number | null = null;
  if (details.severity !== undefined && details.severity !== '') {
    level = Number(details.severity);
    if (!Number.isInteger(level) || level < 0 || level > 7) {
      return `transaction.messages[${index}].details.severity must be 0 to 7, got ${JSON.stringify(details.severity)}.`;
    }
  }
  const tags = Array.isArray(details.tags) ? details.tags.filter((t): t is string => typeof t === 'string') : [];
  return { ruleId, level, tags, message: text(entry.message) };
}

/** True for a ModSecurity v3 JSON audit record (an object with a `transaction` object). */
export function isModSecurityRecord(value: unknown): boolean {
  return isRecord(value) && isRecord(value.transaction);
}

/** Maps one ModSecurity v3 JSON audit record (SecAuditLogFormat JSON) onto the event fields. */
export function parseModSecurity(value: unknown): LineResult {
  if (!isRecord(value)) return lineError('Expected a JSON object.');
  const tx = value.transaction;
  if (!isRecord(tx)) return lineError('Not a ModSecurity audit record: no "transaction" object.');
  if (typeof tx.time_stamp !== 'string') return lineError('transaction.time_stamp is required.');
  const time = parseAsctime(tx.time_stamp);
  if (!time) return lineError(`transaction.time_stamp is not an asctime date: ${JSON.stringify(tx.time_stamp)}.`);
  const outOfRange = timeProblem(time, 'transaction.time_stamp');
  if (outOfRange !== null) return lineError(outOfRange);
  const request = isRecord(tx.request) ? tx.request : {};
  const response = isRecord(tx.response) ? tx.response : {};
  let status: number | null = null;
  if (response.http_code !== undefined) {
    status = Number(response.http_code);
    if (!Number.isInteger(status) || status < 0 || status > 999) {
      return lineError(
        `transaction.response.http_code must be an HTTP status, got ${JSON.stringify(response.http_code)}.`,
      );
    }
  }
  // The connector may name the firewall that wrote the record.
  const firewallId = value.firewallId;
  if (firewallId !== undefined && (typeof firewallId !== 'string' || !uuidPattern.test(firewallId))) {
    return lineError('firewallId must be a UUID.');
  }
  if (tx.messages !== undefined && !Array.isArray(tx.messages))
    return lineError('transaction.messages must be an array.');
  const messages: Message[] = [];
  for (const [i, entry] of (tx.messages ?? []).entries()) {
    const read = readMessage(entry, i);
    if (typeof read === 'string') return lineError(read);
    messages.push(read);
  }

  // Action: refused by ModSecurity, matched but let through, or clean.
  const refusedByScore = messages.some((m) => m.ruleId !== null && blockingRules.has(m.ruleId));
  let action: EventAction = 'allowed';
  if (status === 403 || (refusedByScore && status !== null && status >= 400 && status < 500)) action = 'blocked';
  else if (messages.length > 0) action = 'logged';

  // Severity: the highest among the messages.
  let severity: Severity = 'info';
  for (const m of messages) {
    if (m.level === null) continue;
    const s = severityOfLevel(m.level);
    if (severities.indexOf(s) < severities.indexOf(severity)) severity = s;
  }

  const ruleIds = [...new Set(messages.flatMap((m) => (m.ruleId === null ? [] : [m.ruleId])))];
  // The categories of the rules that detected something: the anomaly-score verdict's own tag (attack-generic) would
  // otherwise count every blocked request as a generic attack.
  const detecting = messages.filter((m) => m.ruleId === null || !anomalyRules.has(m.ruleId));
  const tags = [...new Set((detecting.length > 0 ? detecting : messages).flatMap((m) => m.tags))];
  const attack = messages.find((m) => m.message && (m.ruleId === null || !anomalyRules.has(m.ruleId)));
  const ip = text(tx.client_ip);
  const event: NormalisedEvent = {
    time: time.toISOString(),
    dedupKey: text(tx.unique_id),
    ip,
    country: countryOf(ip),
    method: text(request.method),
    host: header(request.headers, 'host') ?? text(tx.host_ip),
    path: text(request.uri),
    status,
    action,
    severity,
    ruleIds,
    tags,
    message: attack?.message ?? messages[0]?.message ?? null,
    userAgent: header(request.headers, 'user-agent'),
    firewallId: typeof firewallId === 'string' ? firewallId : null,
    raw: value,
  };
  return { ok: true, event };
}
