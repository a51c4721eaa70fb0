import { useEffect, useRef, useState } from 'react';
import { vulnLimits } from '../../../../contract/constants/vulns.ts';
import type { VulnImport } from '../../../../contract/vuln-refs.ts';
import { errorMessage } from '../../../lib/api.ts';
import { invalidateApi } from '../../../stores/fetcher.ts';
import { $vulnImports, $vulnRefs, isRunning, loadImport, uploadImport } from '../../../stores/vuln-refs.ts';
import { countOf } from '../../shared/format.ts';
import { TableScroll } from '../../shared/TableScroll.tsx';
import { ColumnHeads } from './ColumnHeads.tsx';
import { RecentImports } from './RecentImports.tsx';

interface Props {
  readonly spaceId: string;
  /** The space's newest imports: one still running is followed (after a reload too). */
  readonly imports: readonly VulnImport[];
  /** How often a running import is asked for its progress (ms). */
  readonly pollMs?: number;
}

/** The import's progress as a real progress bar: files read of the total. */
function Progress({ item }: { readonly item: VulnImport }) {
  const total = item.filesTotal;
  const text =
    total > 0
      ? `${item.filesRead.toLocaleString('en')} of ${countOf(total, 'file')}`
      : item.status === 'queued'
        ? 'Waiting to start'
        : 'Reading the archive';
  return (
    <div className="sg-vr-progress">
      <label htmlFor="sg-vr-progress-bar">{item.fileName ?? 'Import'}</label>
      <progress
        id="sg-vr-progress-bar"
        aria-describedby="sg-vr-progress-text"
        max={total > 0 ? total : undefined}
        value={total > 0 ? item.filesRead : undefined}
      />
      <p id="sg-vr-progress-text" role="status" aria-live="polite">
        {text}
      </p>
    </div>
  );
}

/** What an import did: counts, the refused files with their reasons, or why it failed. */
function Result({ item }: { readonly item: VulnImport }) {
  if (item.status === 'failed') {
    return (
      <p className="sg-vr-error" role="alert">
        The import of {item.fileName ?? 'the file'} failed: {item.error}
      </p>
    );
  }
  return (
    <div className="sg-vr-result">
      <p role="status">
        Imported {item.fileName ?? 'the file'}: {countOf(item.imported, 'new record')}, {item.updated} updated,{' '}
        {item.unchanged} unchanged, {item.withdrawn} withdrawn, {item.refusedCount} refused.
      </p>
      {item.refusedCount > 0 && (
        <TableScroll label="Refused files">
          <table className="data">
            <caption>
              Refused files
              {item.refusedCount > item.refused.length
                ? ` (the first ${item.refused.length} of ${item.refusedCount})`
                : ''}
            </caption>
            <ColumnHeads names={['File', 'Reason']} />
            <tbody>
              {item.refused.map((refused, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a zip may hold one name twice; the list never moves
                <tr key={`${index}:${refused.file}`}>
                  <th scope="row" className="sg-mono">
                    {refused.file}
                  </th>
                  <td>{refused.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </div>
  );
}

/**
 * Admins' import: a JSON or zip file, uploaded; a small JSON answers at once, anything else runs as a job whose
 * progress is polled and shown as a progress bar, and which the panel picks up again after a reload.
 */
export function ImportPanel({ spaceId, imports, pollMs = 1_000 }: Props) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [current, setCurrent] = useState<VulnImport | null>(null);
  const input = useRef<HTMLInputElement>(null);

  // After a reload: follow the newest import still running.
  useEffect(() => {
    if (current) return;
    const running = imports.find(isRunning);
    if (running) setCurrent(running);
  }, [imports, current]);

  // Poll a running import until it is done or failed; then the list shows what it brought.
  useEffect(() => {
    if (!current || !isRunning(current)) return;
    let stopped = false;
    const timer = setTimeout(async () => {
      try {
        const next = await loadImport(spaceId, current.id);
        if (stopped) return;
        setCurrent(next);
        setProblem(null);
        if (!isRunning(next)) invalidateApi($vulnRefs, $vulnImports);
      } catch (error) {
        if (stopped) return;
        // Shown, and asked again a little later (the connection may come back).
        setProblem(errorMessage(error));
        setTimeout(() => !stopped && setCurrent({ ...current }), pollMs * 4);
      }
    }, pollMs);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [current, spaceId, pollMs]);

  const upload = async () => {
    if (!file) {
      setProblem('Choose a .json or .zip file first.');
      return;
    }
    if (file.size > vulnLimits.importBytes) {
      setProblem(`The file is larger than ${vulnLimits.importBytes / 1024 / 1024} MiB; split the archive.`);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const started = await uploadImport(spaceId, file);
      setCurrent(started);
      if (!isRunning(started)) invalidateApi($vulnRefs, $vulnImports);
      setFile(null);
      if (input.current) input.current.value = '';
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="sg-vr-import" aria-labelledby="sg-vr-import-heading">
      <h3 id="sg-vr-import-heading">Import OSV records</h3>
      <p className="muted">
        One OSV record or an array of them (.json), or a zip of record files such as OSV’s per-ecosystem all.zip (.zip),
        up to {vulnLimits.importBytes / 1024 / 1024} MiB. An older <code>modified</code> never overwrites a newer
        record; a change re-assesses the space’s assets.
      </p>
      <form
        className="row sg-vr-import-form"
        onSubmit={(event) => {
          event.preventDefault();
          void upload();
        }}
      >
        <div className="field">
          <label htmlFor="sg-vr-file">OSV file</label>
          <input
            ref={input}
            id="sg-vr-file"
            type="file"
            accept=".json,.zip,application/json,application/zip"
            onChange={(event) => {
              setFile(event.currentTarget.files?.[0] ?? null);
              setProblem(null);
            }}
          />
        </div>
        <button type="submit" className="button" disabled={busy || (current !== null && isRunning(current))}>
          {busy ? 'Uploading…' : 'Import'}
        </button>
      </form>
      {problem && (
        <p className="sg-vr-error" role="alert">
          {problem}
        </p>
      )}
      {current && current.status !== 'failed' && <Progress item={current} />}
      {current && !isRunning(current) && <Result item={current} />}
      <RecentImports items={imports} />
    </section>
  );
}
