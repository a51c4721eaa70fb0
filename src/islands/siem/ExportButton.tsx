import { lazy, type ReactNode, Suspense, useId, useState } from 'react';
import { type ExportFormat, exportFormats } from '../../../contract/constants/events.ts';
import { errorMessage } from '../../lib/api.ts';
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

const LABELS: Record<ExportFormat, string> = { ndjson: 'NDJSON', csv: 'CSV' };

// The export's code (its progress and outcome, and the download itself) loads when an export is first started.
const ExportPanel = lazy(() =>
  import('./ExportPanel.tsx').then(
    (module) => ({ default: module.ExportPanel }),
    (error: unknown) => ({
      default: () => (
        <Alert tone="error">
          Export failed: its code could not be loaded ({errorMessage(error)}). Reload the page and try again.
        </Alert>
      ),
    }),
  ),
);

/** One button per format, each starting an export in it; none while an export runs. */
export function ExportChoice({ busy, onStart }: { busy: boolean; onStart: (format: ExportFormat) => void }) {
  return (
    <fieldset className="sg-export__buttons" disabled={busy}>
      <legend className="visually-hidden">Export the current result</legend>
      {exportFormats.map((format) => (
        <button key={format} type="button" className="button secondary" onClick={() => onStart(format)}>
          Export {LABELS[format]}
        </button>
      ))}
    </fieldset>
  );
}

interface ProgressProps {
  readonly format: ExportFormat;
  /** Events done, of `total` (null while unknown: the bar shows no amount). */
  readonly rows: number;
  readonly total: number | null;
  /** What is done, in words. */
  readonly done: ReactNode;
  readonly onCancel: () => void;
}

/** A running export: its bar, what is done, and Cancel. */
export function ExportProgress({ format, rows, total, done, onCancel }: ProgressProps) {
  const progressId = useId();
  return (
    <div className="sg-export__progress">
      <label htmlFor={progressId}>Exporting {LABELS[format]}</label>
      <progress
        id={progressId}
        max={total === null ? undefined : Math.max(1, total)}
        value={total === null ? undefined : Math.min(rows, total)}
      />
      {/* Not a live region: it changes with every chunk; the outcome is announced when it ends. */}
      <span className="muted">{done}</span>
      <button type="button" className="button secondary" onClick={onCancel}>
        Cancel export
      </button>
    </div>
  );
}

/** Said when an export is cancelled, before anything was saved. */
export const CANCELLED = <Alert tone="info">Export cancelled; nothing was saved.</Alert>;

/**
 * Export of the event log's current result as NDJSON or CSV: streams the file from the API with a progress bar
 * (events done of `X-Total-Count`, and bytes), can be cancelled, then saves it under the server's file name. Until an
 * export is first started only the buttons are here; the first press shows the export starting while its code loads.
 */
export function ExportButton(props: ExportButtonProps) {
  const [first, setFirst] = useState<ExportFormat | 'cancelled' | null>(null);
  if (first === null || first === 'cancelled') {
    return (
      <div className="sg-export">
        <ExportChoice busy={false} onStart={setFirst} />
        {first === 'cancelled' && CANCELLED}
      </div>
    );
  }
  const starting = (
    <div className="sg-export">
      <ExportChoice busy onStart={setFirst} />
      <ExportProgress format={first} rows={0} total={null} done="Starting…" onCancel={() => setFirst('cancelled')} />
    </div>
  );
  return (
    <Suspense fallback={starting}>
      <ExportPanel {...props} first={first} />
    </Suspense>
  );
}
