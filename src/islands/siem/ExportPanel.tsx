/**
 * The event log's export once one is started: runs it (the first format pressed at once, then any other), shows its
 * progress, and says how it ended; loaded with the first press (ExportButton.tsx).
 */
import { useEffect, useRef, useState } from 'react';
import type { ExportFormat } from '../../../contract/constants/events.ts';
import { Alert } from '../shared/Alert.tsx';
import { CANCELLED, type ExportButtonProps, ExportChoice, ExportProgress } from './ExportButton.tsx';
import { type ExportJob, type ExportState, runExport } from './export-run.ts';

/** "1.2 MB" */
function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const count = (n: number) => n.toLocaleString('en');

/** The export panel, started in the `first` format. */
export function ExportPanel({ spaceId, query, from, to, first }: ExportButtonProps & { readonly first: ExportFormat }) {
  const [state, setState] = useState<ExportState>({ step: 'running', format: first, rows: 0, total: null, bytes: 0 });
  const running = useRef<ExportJob>(null);

  const start = async (format: ExportFormat) => {
    const controller = new AbortController();
    const job: ExportJob = { controller, reader: null };
    running.current = job;
    setState({ step: 'running', format, rows: 0, total: null, bytes: 0 });
    try {
      await runExport(job, { spaceId, format, query, from, to }, setState);
    } finally {
      if (running.current === job) running.current = null;
    }
  };

  const stop = () => {
    running.current?.controller.abort();
    running.current?.reader?.cancel().catch(() => undefined);
    running.current = null;
  };

  // The format first pressed starts once this code is in; leaving the screen stops a running export.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the first press starts one export, once
  useEffect(() => {
    void start(first);
    return stop;
  }, []);

  const cancel = () => {
    if (!running.current) return;
    stop();
    setState({ step: 'cancelled' });
  };

  return (
    <div className="sg-export">
      <ExportChoice busy={state.step === 'running'} onStart={(format) => void start(format)} />
      {state.step === 'running' && (
        <ExportProgress
          format={state.format}
          rows={state.rows}
          total={state.total}
          done={`${count(state.rows)}${state.total === null ? '' : ` of ${count(state.total)}`} events, ${size(state.bytes)}`}
          onCancel={cancel}
        />
      )}
      {state.step === 'done' && (
        <Alert tone={state.total !== null && state.rows < state.total ? 'error' : 'success'}>
          Saved {state.file}: {count(state.rows)} events
          {state.total !== null && state.rows < state.total
            ? ` of ${count(state.total)}; the export stopped early, so try again for the rest.`
            : '.'}
        </Alert>
      )}
      {state.step === 'cancelled' && CANCELLED}
      {state.step === 'error' && <Alert tone="error">{state.message}</Alert>}
    </div>
  );
}
