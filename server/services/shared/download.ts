import type { ExportFormat } from '../../../contract/constants/events.ts';

/** A file an export streams: its headers, then its text chunk by chunk (read from the database as it is sent). */
export type Download = { headers: Record<string, string>; chunks: AsyncIterable<string> };

/** Content-Type and attachment name of an NDJSON or CSV download named `<name>.<format>`. */
export function downloadHeaders(format: ExportFormat, name: string): Record<string, string> {
  return {
    'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    'Content-Disposition': `attachment; filename="${name}.${format}"`,
  };
}
