import { useEffect, useId, useRef, useState } from 'react';
import { type ExportFormat, exportFormats } from '../../../contract/constants/events.ts';
import { ApiError, client } from '../../lib/api.ts';
import { Alert } from '../shared/Alert.tsx';
import './ExportButton.css';

/** What the event log shows now: its query and the absolute window of the current result. */
export interface ExportButtonProps {
  readonly spaceId: string;
  /** The event query, as the screen searched it (`view.q`). */
  readonly query: string;
  /** The window of the current result (the screen's `data.window`), RFC 3339. */
  readonly from: string;
  readonly to: string;
}

type State =
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

const LABELS: Record<ExportFormat, string> = { ndjson: 'NDJSON', csv: 'CSV' };
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

/** "1.2 MB" */
function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const count = (n: number) => n.toLocaleString('en');

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

/**
 * Export of the event log's current result as NDJSON or CSV: streams the file from the API with a progress bar
 * (events done of `X-Total-Count`, and bytes), can be cancelled, then saves it under the server's file name.
 */
export function ExportButton({ spaceId, query, from, to }: ExportButtonProps) {
  const [state, setState] = useState<State>({ step: 'idle' });
  const progressId = useId();
  const running = useRef<{ controller: AbortController; reader: ReadableStreamDefaultReader<Uint8Array> | null }>(null);

  // Leaving the screen stops a running export.
  useEffect(
    () => () => {
      running.current?.controller.abort();
      running.current?.reader?.cancel().catch(() => undefined);
    },
    [],
  );

  const start = async (format: ExportFormat) => {
    const controller = new AbortController();
    const job: { controller: AbortController; reader: ReadableStreamDefaultReader<Uint8Array> | null } = {
      controller,
      reader: null,
    };
    running.current = job;
    setState({ step: 'running', format, rows: 0, total: null, bytes: 0 });
    try {
      // Resolves only on 2xx; a refusal is thrown as ApiError with the fields that say what to change.
      const response = await client.spaces[':spaceId'].events.export.$get(
        { param: { spaceId }, query: { format, q: query, from, to } },
        { init: { signal: controller.signal } },
      );
      if (controller.signal.aborted) {
        response.body?.cancel().catch(() => undefined);
        return;
      }
      if (!response.body) {
        setState({
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
      setState({ step: 'running', format, rows: 0, total, bytes: 0 });
      for (;;) {
        const { done, value } = await reader.read();
        if (controller.signal.aborted) return;
        if (done) break;
        parts.push(value);
        bytes += value.byteLength;
        rows += records(value);
        setState({ step: 'running', format, rows: Math.max(0, rows), total, bytes });
      }
      rows = Math.max(0, rows);
      save(parts, file, format);
      setState({ step: 'done', file, rows, total });
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof ApiError) {
        setState({ step: 'error', message: `Export failed: ${refusalOf(error)}` });
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      setState({ step: 'error', message: `Export failed: the download broke off (${reason}). Try again.` });
    } finally {
      if (running.current === job) running.current = null;
    }
  };

  const cancel = () => {
    const job = running.current;
    if (!job) return;
    job.controller.abort();
    job.reader?.cancel().catch(() => undefined);
    running.current = null;
    setState({ step: 'cancelled' });
  };

  const busy = state.step === 'running';
  return (
    <div className="sg-export">
      <fieldset className="sg-export__buttons" disabled={busy}>
        <legend className="visually-hidden">Export the current result</legend>
        {exportFormats.map((format) => (
          <button key={format} type="button" className="button secondary" onClick={() => start(format)}>
            Export {LABELS[format]}
          </button>
        ))}
      </fieldset>
      {state.step === 'running' && (
        <div className="sg-export__progress">
          <label htmlFor={progressId}>Exporting {LABELS[state.format]}</label>
          <progress
            id={progressId}
            max={state.total === null ? undefined : Math.max(1, state.total)}
            value={state.total === null ? undefined : Math.min(state.rows, state.total)}
          />
          {/* Not a live region: it changes with every chunk; the outcome is announced when it ends. */}
          <span className="muted">
            {count(state.rows)}
            {state.total === null ? '' : ` of ${count(state.total)}`} events, {size(state.bytes)}
          </span>
          <button type="button" className="button secondary" onClick={cancel}>
            Cancel export
          </button>
        </div>
      )}
      {state.step === 'done' && (
        <Alert tone={state.total !== null && state.rows < state.total ? 'error' : 'success'}>
          Saved {state.file}: {count(state.rows)} events
          {state.total !== null && state.rows < state.total
            ? ` of ${count(state.total)}; the export stopped early, so try again for the rest.`
            : '.'}
        </Alert>
      )}
      {state.step === 'cancelled' && <Alert tone="info">Export cancelled; nothing was saved.</Alert>}
      {state.step === 'error' && <Alert tone="error">{state.message}</Alert>}
    </div>
  );
}
