/** Bulk loads of demo events with COPY, bypassing the API: the ingest bench's baseline and the query bench's fill. */
import { spawn } from 'node:child_process';
import type { PGlite } from '@electric-sql/pglite';
import type { NormalisedEvent } from '../../contract/events.ts';
import type { ModSecurityRecord } from '../../server/demo/traffic.ts';
import { parseModSecurity } from '../../server/services/ingest/parse-modsecurity.ts';

/** The events columns a bulk load fills, in COPY order (id comes from its default). */
export const COPY_COLUMNS = [
  'space_id',
  'source_id',
  'time',
  'received_at',
  'dedup_key',
  'ip',
  'country',
  'method',
  'host',
  'path',
  'status',
  'action',
  'severity',
  'rule_ids',
  'tags',
  'message',
  'user_agent',
  'firewall_id',
  'raw',
] as const;

const csvField = (value: string | null): string => (value === null ? '' : `"${value.replace(/"/g, '""')}"`);
const arrayLiteral = (items: (string | number)[]): string =>
  `{${items.map((i) => (typeof i === 'number' ? String(i) : `"${i.replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`;

/** The records normalised by the ingest parser (as the API does), as CSV lines for COPY. */
export function csvRows(records: ModSecurityRecord[], spaceId: string, sourceId: string, receivedAt: Date): string {
  const received = receivedAt.toISOString();
  let out = '';
  for (const record of records) {
    const parsed = parseModSecurity(record);
    if (!parsed.ok) throw new Error(parsed.message);
    const e: NormalisedEvent = parsed.event;
    out += `${[
      spaceId,
      sourceId,
      e.time,
      received,
      csvField(e.dedupKey),
      csvField(e.ip),
      csvField(e.country),
      csvField(e.method),
      csvField(e.host),
      csvField(e.path),
      e.status === null ? '' : String(e.status),
      e.action,
      e.severity,
      csvField(arrayLiteral(e.ruleIds)),
      csvField(arrayLiteral(e.tags)),
      csvField(e.message),
      csvField(e.userAgent),
      e.firewallId ?? '',
      csvField(JSON.stringify(e.raw)),
    ].join(',')}\n`;
  }
  return out;
}

const copySql = (source: string) => `copy events (${COPY_COLUMNS.join(', ')}) from ${source} with (format csv)`;

/** COPY FROM STDIN through psql's \copy (node-postgres has no COPY without an extra package). */
export function copyWithPsql(url: string, csv: string | Iterable<string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', `\\${copySql('stdin')}`], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql \\copy failed: ${stderr}`))));
    void (async () => {
      for (const chunk of typeof csv === 'string' ? [csv] : csv) {
        if (!child.stdin.write(chunk)) await new Promise((r) => child.stdin.once('drain', r));
      }
      child.stdin.end();
    })();
  });
}

/** COPY from an in-memory blob into PGlite. */
export async function copyIntoPglite(pglite: PGlite, csv: string): Promise<void> {
  await pglite.query(copySql(`'/dev/blob'`), [], { blob: new Blob([csv]) });
}
