import { GenericEvent, type NormalisedEvent } from '../../../contract/events.ts';
import { countryOf } from './geoip.ts';
import { describeIssues } from './parse-generic.ts';
import { severityOfLevel } from './parse-modsecurity.ts';
import { isRecord, type LineResult, lineError } from './types.ts';
import { timeProblem } from './validate.ts';

const header = /^<(\d{1,3})>1 (\S+) (\S+) (\S+) (\S+) (\S+) /;

/** Reads STRUCTURED-DATA (`-` or `[id k="v" ...]...`); answers the elements and the rest of the line. */
function readStructuredData(input: string): { data: Record<string, Record<string, string>>; rest: string } | string {
  if (input.startsWith('-')) return { data: {}, rest: input.slice(1) };
  const data: Record<string, Record<string, string>> = {};
  let i = 0;
  while (input[i] === '[') {
    i++;
    const idMatch = /^[^\s\]="]+/.exec(input.slice(i));
    if (!idMatch) return 'structured data element without an id.';
    const id = idMatch[0];
    i += id.length;
    const params: Record<string, string> = {};
    while (input[i] === ' ') {
      i++;
      const nameMatch = /^([^\s\]="]+)="/.exec(input.slice(i));
      if (!nameMatch?.[1]) return `bad parameter in structured data element [${id}].`;
      i += nameMatch[0].length;
      let value = '';
      for (;;) {
        const ch = input[i];
        if (ch === undefined) return `unterminated value in structured data element [${id}].`;
        if (ch === '\\' && (input[i + 1] === '"' || input[i + 1] === '\\' || input[i + 1] === ']')) {
          value += input[i + 1];
          i += 2;
          continue;
        }
        i++;
        if (ch === '"') break;
        value += ch;
      }
      params[nameMatch[1]] = value;
    }
    if (input[i] !== ']') return `structured data element [${id}] is not closed.`;
    i++;
    data[id] = params;
  }
  if (i === 0) return 'structured data must be "-" or start with "[".';
  return { data, rest: input.slice(i) };
}

function nil(value: string): string | null {
  return value === '-' ? null : value;
}

/**
 * Parses one RFC 5424 line `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID SD MSG`: severity from PRI,
 * host from HOSTNAME, message from MSG; a JSON object in MSG adds generic event fields.
 */
export function parseSyslog(line: string, now: Date): LineResult {
  const m = header.exec(`${line.replace(/\r$/, '')} `);
  if (!m) return lineError('Not an RFC 5424 syslog line: expected "<PRI>1 TIMESTAMP HOST APP PROCID MSGID ...".');
  const pri = Number(m[1]);
  if (pri > 191) return lineError(`PRI must be 0 to 191, got ${pri}.`);
  const stamp = m[2] ?? '-';
  let time = now;
  if (stamp !== '-') {
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/.test(stamp)) {
      return lineError(`TIMESTAMP must be RFC 3339 or "-", got ${JSON.stringify(stamp)}.`);
    }
    time = new Date(stamp);
    if (Number.isNaN(time.getTime())) return lineError(`TIMESTAMP is not a real date: ${stamp}.`);
    const outOfRange = timeProblem(time, 'TIMESTAMP');
    if (outOfRange !== null) return lineError(outOfRange);
  }
  const sd = readStructuredData(line.replace(/\r$/, '').slice(m[0].length));
  if (typeof sd === 'string') return lineError(`Bad STRUCTURED-DATA: ${sd}`);
  let msg = sd.rest.startsWith(' ') ? sd.rest.slice(1) : sd.rest;
  if (msg.startsWith('\uFEFF')) msg = msg.slice(1);

  const event: NormalisedEvent = {
    time: time.toISOString(),
    dedupKey: null,
    ip: null,
    country: null,
    method: null,
    host: nil(m[3] ?? '-'),
    path: null,
    status: null,
    action: 'logged',
    severity: severityOfLevel(pri % 8),
    ruleIds: [],
    tags: [],
    message: msg === '' ? null : msg,
    userAgent: null,
    firewallId: null,
    raw: {
      pri,
      timestamp: nil(stamp),
      hostname: nil(m[3] ?? '-'),
      appName: nil(m[4] ?? '-'),
      procId: nil(m[5] ?? '-'),
      msgId: nil(m[6] ?? '-'),
      structuredData: sd.data,
      msg,
    },
  };

  // A JSON object in MSG carries generic event fields; its own time wins over the header's.
  const trimmed = msg.trim();
  if (trimmed.startsWith('{')) {
    let fields: unknown;
    try {
      fields = JSON.parse(trimmed);
    } catch {
      return { ok: true, event };
    }
    if (!isRecord(fields)) return { ok: true, event };
    const parsed = GenericEvent.safeParse({ time: event.time, ...fields });
    if (!parsed.success) return lineError(`JSON in MSG: ${describeIssues(parsed.error)}`);
    const g = parsed.data;
    const outOfRange = timeProblem(g.time, 'JSON in MSG: time');
    if (outOfRange !== null) return lineError(outOfRange);
    const ip = g.ip?.trim() || null;
    Object.assign(event, {
      time: new Date(g.time).toISOString(),
      dedupKey: g.id ?? null,
      ip,
      country: countryOf(ip),
      method: g.method?.toUpperCase() ?? null,
      host: g.host ?? event.host,
      path: g.path ?? null,
      status: g.status ?? null,
      action: g.action ?? event.action,
      severity: g.severity ?? event.severity,
      ruleIds: g.ruleIds ?? [],
      tags: g.tags ?? [],
      message: g.message ?? event.message,
      userAgent: g.userAgent ?? null,
      firewallId: g.firewallId ?? null,
    });
  }
  return { ok: true, event };
}
