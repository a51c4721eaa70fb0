import { useEffect, useId, useRef, useState } from 'react';
import { type ExportFormat, exportFormats } from '../../../contract/constants/events.ts';
import { Alert } from '../shared/Alert.tsx';
import type { ExportJob, ExportState } from './export-run.ts';
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

const LABELS: Record<ExportFormat, string> = { ndjson: 'NDJSON', csv: 'CSV' };

/** "1.2 MB" */
function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const count = (n: number) => n.toLocaleString('en');

/**
 * Export of the event log's current result as NDJSON or CSV: streams the file from the API with a progress bar
 * (events done of `X-Total-Count`, and bytes), can be cancelled, then saves it under the server's file name.
 */
export function ExportButton({ spaceId, query, from, to }: ExportButtonProps) {
  const [state, setState] = useState<ExportState>({ step: 'idle' });
  const progressId = useId();
  const running = useRef<ExportJob>(null);

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
    const job: ExportJob = { controller, reader: null };
    running.current = job;
    setState({ step: 'running', format, rows: 0, total: null, bytes: 0 });
    try {
      const { runExport } = await import('./export-run.ts');
      await runExport(job, { spaceId, format, query, from, to }, setState);
    } catch (error) {
      // Only the code failed to load: the export itself reports its own failures.
      if (controller.signal.aborted) return;
      const reason = error instanceof Error ? error.message : String(error);
      setState({ step: 'error', message: `Export failed: ${reason}. Try again.` });
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
