import { and, desc, eq, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import { stream } from 'hono/streaming';
import { SpaceParams } from '../../contract/common.ts';
import { EVENT_EXPORT_LIMIT, EventExportQuery, eventCsvColumns } from '../../contract/event-search.ts';
import { events } from '../db/schema/events.ts';
import { sources } from '../db/schema/sources.ts';
import { ApiError } from '../errors.ts';
import { createRouter, route } from '../router.ts';
import { csvRow } from '../services/shared/csv.ts';
import { view, whereOf } from './events.ts';

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

/** Export of the event log's current result (PRODUCT.md §3 `/console/siem`): every matching event, streamed. */
export const eventExportRoutes = createRouter().openapi(
  route('viewer', {
    method: 'get',
    path: '/{spaceId}/events/export',
    summary: `Every event matching a query and time range, newest first, as NDJSON or CSV (at most ${EVENT_EXPORT_LIMIT.toLocaleString('en')} events)`,
    description: [
      'Streams the whole result, fetched in keyset-paged chunks, as a file download.',
      '`X-Total-Count` gives the number of matching events up front, so a client can show progress.',
      'NDJSON lines are events as `GET .../events/{eventId}` answers them, `raw` included.',
      `CSV columns: ${eventCsvColumns.join(', ')} (source by name; rule ids and tags space-separated);`,
      'every cell quoted (RFC 4180), and cells starting with = + - @ get a leading apostrophe so spreadsheets do not run them.',
      `A result of more than ${EVENT_EXPORT_LIMIT.toLocaleString('en')} events is refused with 422: narrow the range or the query.`,
    ].join(' '),
    request: { params: SpaceParams, query: EventExportQuery },
    responses: {
      200: {
        description: 'The events, newest first',
        headers: {
          'X-Total-Count': {
            description: 'How many events matched when the export started (events ingested meanwhile may add a few)',
            schema: { type: 'integer' },
          },
          'Content-Disposition': {
            description: 'attachment; filename="spaceguard-events-{space}-{from}-{to}.ndjson|csv"',
            schema: { type: 'string' },
          },
        },
        content: {
          'application/x-ndjson': { schema: { type: 'string' } },
          'text/csv': { schema: { type: 'string' } },
        },
      },
    },
  }),
  async (c) => {
    const q = c.req.valid('query');
    const { db, log, now } = c.var.deps;
    const space = c.var.space;
    const csv = q.format === 'csv';
    // Checked before anything is sent: a bad query is a 400 naming its position.
    const where = whereOf(space.id, q);
    const [counted] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(events)
      .where(and(...where));
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
    const file = `spaceguard-events-${slug(space.name, space.id)}-${q.from ? compact(q.from) : 'start'}-${compact(q.to ?? now().toISOString())}.${csv ? 'csv' : 'ndjson'}`;
    c.header('Content-Type', csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="${file}"`);
    c.header('X-Total-Count', String(total));
    c.header('Cache-Control', 'no-store');
    return stream(
      c,
      async (out) => {
        // RFC 4180 ends records with CRLF.
        if (csv) await out.write(`${eventCsvColumns.join(',')}\r\n`);
        let after: { time: Date; id: string } | null = null;
        let sent = 0;
        while (!out.aborted && sent < limit) {
          // After the last row sent, in (time, id) order; `time <= last` alone bounds the index scan.
          const chunk: SQL[] = after
            ? [
                ...where,
                lte(events.time, after.time),
                or(lt(events.time, after.time), and(eq(events.time, after.time), lt(events.id, after.id))) as SQL,
              ]
            : where;
          const rows = await db
            .select()
            .from(events)
            .where(and(...chunk))
            .orderBy(desc(events.time), desc(events.id))
            .limit(Math.min(EXPORT_CHUNK, limit - sent));
          if (rows.length === 0) break;
          const lines = rows.map((row) => {
            if (!csv) return `${JSON.stringify(view(row))}\n`;
            return `${csvRow([
              row.time.toISOString(),
              row.id,
              names.get(row.sourceId) ?? row.sourceId,
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
          });
          await out.write(lines.join(''));
          sent += rows.length;
          const last = rows.at(-1);
          if (!last || rows.length < EXPORT_CHUNK) break;
          after = { time: last.time, id: last.id };
        }
      },
      async (error) => {
        // Headers are gone: the client sees a short file (fewer rows than X-Total-Count).
        log({ level: 'error', msg: 'event export failed', requestId: c.var.requestId, error: String(error) });
      },
    );
  },
);
