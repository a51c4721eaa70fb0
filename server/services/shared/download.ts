import type { ExportFormat } from '../../../contract/constants/events.ts';
import { csvRow } from './csv.ts';
import type { Logger } from './logger.ts';

/** A file an export streams: its headers, then its text chunk by chunk (read from the database as it is sent). */
export type Download = { headers: Record<string, string>; chunks: AsyncIterable<string> };

/** Content-Type and attachment name of an NDJSON or CSV download named `<name>.<format>`. */
export function downloadHeaders(format: ExportFormat, name: string): Record<string, string> {
  return {
    'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    'Content-Disposition': `attachment; filename="${name}.${format}"`,
  };
}

const incomplete = 'The export failed before its end: this file is incomplete. Export again, or narrow the range.';

/** The last line of a file whose export failed midway: an error object in NDJSON, a `#truncated` row in CSV. */
export function truncatedMarker(format: ExportFormat): string {
  return format === 'csv'
    ? `${csvRow([`#truncated: ${incomplete}`])}\r\n`
    : `${JSON.stringify({ error: { code: 'export_failed', message: incomplete } })}\n`;
}

/**
 * A download whose failures show, since a short file that looks whole is worse than an error: the first chunk is
 * read before anything is answered (a failure there throws, so the client gets an error status, not an empty 200),
 * and a failure after it ends the file with `truncatedMarker` (logged) instead of cutting it silently.
 * The first chunk of `chunks` should hold the first rows read, not only a header.
 */
export async function visibleDownload(
  format: ExportFormat,
  headers: Record<string, string>,
  chunks: AsyncIterable<string>,
  log: Logger,
): Promise<Download> {
  const source = chunks[Symbol.asyncIterator]();
  const first = await source.next();
  async function* rest(): AsyncGenerator<string> {
    try {
      if (first.done) return;
      yield first.value;
      for (let next = await source.next(); !next.done; next = await source.next()) yield next.value;
    } catch (error) {
      log({ level: 'error', msg: 'export failed midway', format, error: String(error) });
      yield truncatedMarker(format);
    } finally {
      // The client went away (or the file ended): let the reader close its work.
      await source.return?.();
    }
  }
  return { headers, chunks: rest() };
}
