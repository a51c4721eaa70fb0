/** Export of the event log's current result (docs/product.md §3 `/console/siem`): every matching event, streamed. */
import { and, desc, eq, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { EVENT_EXPORT_LIMIT, type EventExportQuery, eventCsvColumns } from '../../../contract/event-search.ts';
import type { SpaceCaller } from '../../caller.ts';
import { type EventRow, eventRaw, events } from '../../db/schema/events.ts';
import { sources } from '../../db/schema/sources.ts';
import { ApiError } from '../../errors.ts';
import { csvRow } from '../shared/csv.ts';
import { type Download, downloadHeaders, visibleDownload } from '../shared/download.ts';
import { eventView, eventWithRaw, rawOfEvent, whereOf } from './filters.ts';

/** Rows fetched per query: memory stays flat however large the export. */
export const EXPORT_CHUNK = 2000;

/** The most events one export sends (EVENT_EXPORT_LIMIT); a test lowers it to check the refusal without a million rows. */
export const exportLimits = { rows: EVENT_EXPORT_LIMIT };

/** `2026-11-21T10:00:00.000Z` as `20261121T100000Z`, for file names. */
function compact(iso: string): string {
  return new Date(iso).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
}

/** The space's name as a file-name word (ASCII letters, digits, dashes), or its id when nothing is left. */
function slug(name: string, id: string): string {
  const word = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return word || id;
}

/** One CSV record of an event (RFC 4180 ends records with CRLF); the source by name. */
function csvLine(row: EventRow, sourceNames: Map<string, string>): string {
  return `${csvRow([
    row.time.toISOString(),
    row.id,
    sourceNames.get(row.sourceId) ?? row.sourceId,
    row.ip,
    row.country,
    row.method,
    row.host,
    row.path,
    row.status,
    row.action,
    row.severity,
    row.ruleIds.join(' '),
    row.tags.join(' '),
    row.message,
    row.userAgent,
  ])}\r\n`;
}

/**
 * Counts the matching events first (so a bad query is a 400 and a result over the limit a 422, before anything
 * is sent), then answers the download: its headers, with `X-Total-Count`, and its lines read in keyset-paged
 * chunks of EXPORT_CHUNK, newest first. A failure reading the first chunk is an error status, a later one ends
 * the file with a truncated marker (`visibleDownload`).
 */
export async function exportEvents(sc: SpaceCaller, q: z.infer<typeof EventExportQuery>): Promise<Download> {
  const { db, now, searches } = sc.deps;
  const { space } = sc;
  const csv = q.format === 'csv';
  const where = whereOf(space.id, q);
  const [counted] = await searches.run('export', space.id, (search) =>
    search
      .select({ n: sql<number>`count(*)::int` })
      .from(events)
      .where(and(...where)),
  );
  const total = Number(counted?.n ?? 0);
  const limit = exportLimits.rows;
  if (total > limit) {
    throw new ApiError(
      422,
      'export_limit',
      `An export holds at most ${limit.toLocaleString('en')} events and ${total.toLocaleString('en')} match: narrow the time range (from, to) or the query (q).`,
    );
  }
  const names = new Map(
    (await db.select({ id: sources.id, name: sources.name }).from(sources).where(eq(sources.spaceId, space.id))).map(
      (s) => [s.id, s.name],
    ),
  );
  const file = `spaceguard-events-${slug(space.name, space.id)}-${q.from ? compact(q.from) : 'start'}-${compact(q.to ?? now().toISOString())}`;
  async function* lines(): AsyncGenerator<string> {
    // The header goes out with the first rows, so a failure reading them is an error status (visibleDownload).
    let header = csv ? `${eventCsvColumns.join(',')}\r\n` : '';
    let after: { time: Date; id: string } | null = null;
    let sent = 0;
    while (sent < limit) {
      // After the last row sent, in (time, id) order; `time <= last` alone bounds the index scan.
      const chunk: SQL[] = after
        ? [
            ...where,
            lte(events.time, after.time),
            or(lt(events.time, after.time), and(eq(events.time, after.time), lt(events.id, after.id))) as SQL,
          ]
        : where;
      // Each chunk is one search of the lane, so a long export shares the database with everyone else.
      const rows = await searches.run('export', space.id, (search) =>
        search
          .select(eventWithRaw)
          .from(events)
          .innerJoin(eventRaw, rawOfEvent)
          .where(and(...chunk))
          .orderBy(desc(events.time), desc(events.id))
          .limit(Math.min(EXPORT_CHUNK, limit - sent)),
      );
      if (rows.length === 0) break;
      yield header + rows.map((row) => (csv ? csvLine(row, names) : `${JSON.stringify(eventView(row))}\n`)).join('');
      header = '';
      sent += rows.length;
      const last = rows.at(-1);
      if (!last || rows.length < EXPORT_CHUNK) break;
      after = { time: last.time, id: last.id };
    }
    if (header) yield header;
  }
  const headers = { ...downloadHeaders(q.format, file), 'X-Total-Count': String(total), 'Cache-Control': 'no-store' };
  return visibleDownload(q.format, headers, lines(), sc.deps.log);
}
