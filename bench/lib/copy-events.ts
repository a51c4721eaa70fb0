/**
 * Bulk loads of demo events with COPY, bypassing the API: the ingest bench's baseline and the query bench's fill.
 * Each event goes into both tables of the events store: its columns into `events` and its raw record into
 * `event_raw`, under the same (space_id, id, time), the id made here so both rows share it. Nothing here
 * maintains the rollups: call rebuildRollups (server/services/events/rollups.ts) after a load.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import type { NormalisedEvent } from '../../contract/events.ts';
import type { ModSecurityRecord } from '../../server/demo/traffic.ts';
import { partitionedTables } from '../../server/services/events/partitions.ts';
import { parseModSecurity } from '../../server/services/ingest/parse-modsecurity.ts';

/** The columns a bulk load fills, in COPY order, per table: those a partition move copies (never `ip_net`). */
export const COPY_COLUMNS = partitionedTables;

/** A table a bulk load writes. */
export type CopyTable = keyof typeof COPY_COLUMNS;

/** The CSV for each table of the same events, line for line. */
export type CopyCsv = Record<CopyTable, string>;

const csvField = (value: string | null): string => (value === null ? '' : `"${value.replace(/"/g, '""')}"`);
const arrayLiteral = (items: (string | number)[]): string =>
  `{${items.map((i) => (typeof i === 'number' ? String(i) : `"${i.replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`;

/** The records normalised by the ingest parser (as the API does), as CSV lines for COPY into each table. */
export function csvRows(records: ModSecurityRecord[], spaceId: string, sourceId: string, receivedAt: Date): CopyCsv {
  const received = receivedAt.toISOString();
  let events = '';
  let raw = '';
  for (const record of records) {
    const parsed = parseModSecurity(record);
    if (!parsed.ok) throw new Error(parsed.message);
    const e: NormalisedEvent = parsed.event;
    const id = randomUUID();
    events += `${[
      spaceId,
      e.time,
      id,
      sourceId,
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
    ].join(',')}\n`;
    raw += `${spaceId},${e.time},${id},${sourceId},${csvField(JSON.stringify(e.raw))}\n`;
  }
  return { events, event_raw: raw };
}

const copySql = (table: CopyTable, source: string) =>
  `copy ${table} (${COPY_COLUMNS[table].join(', ')}) from ${source} with (format csv)`;

/** A running `psql \copy <table> from stdin`: write CSV chunks (waiting on back-pressure), then `end()`. */
type PsqlCopy = { write(chunk: string): Promise<void>; end(): Promise<void> };

function openPsqlCopy(url: string, table: CopyTable): PsqlCopy {
  const child = spawn('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', `\\${copySql(table, 'stdin')}`], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  // A psql that exits early (its database dropped) closes stdin: the exit below reports it with psql's message.
  child.stdin.on('error', () => {});
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql \\copy ${table} failed: ${stderr}`))));
  });
  // A failed psql must fail the load, not leave a writer waiting for 'drain' forever.
  const failed = done.then(
    () => new Promise<never>(() => {}),
    (error: unknown) => Promise.reject(error),
  );
  failed.catch(() => {});
  return {
    async write(chunk) {
      if (!child.stdin.write(chunk)) {
        await Promise.race([new Promise((r) => child.stdin.once('drain', r)), failed]);
      }
    },
    async end() {
      child.stdin.end();
      await done;
    },
  };
}

/** COPY FROM STDIN into `table` through psql's \copy (node-postgres has no COPY without an extra package). */
export async function copyWithPsql(url: string, table: CopyTable, csv: string | Iterable<string>): Promise<void> {
  const copy = openPsqlCopy(url, table);
  for (const chunk of typeof csv === 'string' ? [csv] : csv) await copy.write(chunk);
  await copy.end();
}

/**
 * Both tables' COPYs side by side (two psql processes, so the server writes `events` and `event_raw` on two
 * backends), fed from one stream of chunks generated as they are consumed.
 */
export async function copyEventsWithPsql(url: string, chunks: Iterable<CopyCsv>): Promise<void> {
  const events = openPsqlCopy(url, 'events');
  const raw = openPsqlCopy(url, 'event_raw');
  try {
    for (const chunk of chunks) await Promise.all([events.write(chunk.events), raw.write(chunk.event_raw)]);
  } finally {
    await Promise.all([events.end(), raw.end()]);
  }
}

/** COPY from an in-memory blob into `table` of PGlite. */
export async function copyIntoPglite(pglite: PGlite, table: CopyTable, csv: string): Promise<void> {
  await pglite.query(copySql(table, `'/dev/blob'`), [], { blob: new Blob([csv]) });
}
