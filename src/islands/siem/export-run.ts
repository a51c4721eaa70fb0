/**
 * The event log's export at work, loaded with its panel when an export is first started: streams the file from the
 * API, counting the records as they arrive, and hands it to the browser under the server's file name.
 */
import type { ExportFormat } from '../../../contract/constants/events.ts';
import { ApiError } from '../../lib/api.ts';
import { openEventExport } from '../../stores/event-log.ts';

export type ExportState =
  | { readonly step: 'idle' }
  | {
      readonly step: 'running';
      readonly format: ExportFormat;
      readonly rows: number;
      readonly total: number | null;
      readonly bytes: number;
    }
  | { readonly step: 'done'; readonly file: string; readonly rows: number; readonly total: number | null }
  | { readonly step: 'cancelled' }
  | { readonly step: 'error'; readonly message: string };

/** A running export: what stops it. */
export interface ExportJob {
  readonly controller: AbortController;
  reader: ReadableStreamDefaultReader<Uint8Array> | null;
}

/** The result to export: the event log's query and window. */
export interface ExportRequest {
  readonly spaceId: string;
  readonly format: ExportFormat;
  readonly query: string;
  readonly from: string;
  readonly to: string;
}

const NEWLINE = 10;
const QUOTE = 34;

/** Counts finished records in the bytes as they arrive: line breaks, except those inside a quoted CSV cell. */
function recordCounter(format: ExportFormat) {
  let quoted = false;
  return (bytes: Uint8Array): number => {
    let n = 0;
    for (const byte of bytes) {
      if (byte === NEWLINE && !quoted) n++;
      // A doubled quote ("") flips twice, so only real cell quotes count.
      else if (byte === QUOTE && format === 'csv') quoted = !quoted;
    }
    return n;
  };
}

/** The server's file name from `Content-Disposition`, or a plain one. */
function fileName(headers: Headers, format: ExportFormat): string {
  const match = /filename="([^"]+)"/.exec(headers.get('content-disposition') ?? '');
  return match?.[1] ?? `spaceguard-events.${format}`;
}

/** The API's refusal, with the field messages that say what to change. */
function refusalOf(error: ApiError): string {
  const fields = Object.values(error.fields).filter((text) => text !== error.message);
  return [error.message, ...fields].join(' ');
}

/** Hands a finished file to the browser as a download. */
function save(parts: BlobPart[], file: string, format: ExportFormat): void {
  const blob = new Blob(parts, { type: format === 'csv' ? 'text/csv' : 'application/x-ndjson' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Runs one export, telling `set` its progress and outcome; says nothing more once the job is aborted. */
export async function runExport(
  job: ExportJob,
  request: ExportRequest,
  set: (state: ExportState) => void,
): Promise<void> {
  const { controller } = job;
  const { spaceId, format, query, from, to } = request;
  try {
    // Resolves only on 2xx; a refusal is thrown as ApiError with the fields that say what to change.
    const response = await openEventExport(spaceId, { format, q: query, from, to }, controller.signal);
    if (controller.signal.aborted) {
      response.body?.cancel().catch(() => undefined);
      return;
    }
    if (!response.body) {
      set({
        step: 'error',
        message: `Export failed: The server answered ${response.status}. Try again in a moment.`,
      });
      return;
    }
    const header = response.headers.get('x-total-count');
    const total = header === null || Number.isNaN(Number(header)) ? null : Number(header);
    const file = fileName(response.headers, format);
    const reader = response.body.getReader();
    job.reader = reader;
    const records = recordCounter(format);
    const parts: BlobPart[] = [];
    // The CSV header line is not an event.
    let rows = format === 'csv' ? -1 : 0;
    let bytes = 0;
    set({ step: 'running', format, rows: 0, total, bytes: 0 });
    for (;;) {
      const { done, value } = await reader.read();
      if (controller.signal.aborted) return;
      if (done) break;
      parts.push(value);
      bytes += value.byteLength;
      rows += records(value);
      set({ step: 'running', format, rows: Math.max(0, rows), total, bytes });
    }
    rows = Math.max(0, rows);
    save(parts, file, format);
    set({ step: 'done', file, rows, total });
  } catch (error) {
    if (controller.signal.aborted) return;
    if (error instanceof ApiError) {
      set({ step: 'error', message: `Export failed: ${refusalOf(error)}` });
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    set({ step: 'error', message: `Export failed: the download broke off (${reason}). Try again.` });
  }
}
