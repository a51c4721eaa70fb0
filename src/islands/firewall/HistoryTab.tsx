import { useStore } from '@nanostores/react';
import { useEffect, useId, useState } from 'react';
import type { Firewall } from '../../../contract/firewalls.ts';
import { errorMessage } from '../../lib/api.ts';
import {
  $compareFrom,
  $compareTo,
  $firewallVersions,
  $versionFrom,
  $versionTo,
  rollbackFirewall,
  startDraft,
} from '../../stores/firewalls.ts';
import { Alert } from '../shared/Alert.tsx';
import { ConfirmButton } from '../shared/ConfirmButton.tsx';
import { type DiffLayout, DiffView } from '../shared/DiffView.tsx';
import { dateTime } from '../shared/format.ts';
import { diffLines, hasChanges } from '../shared/line-diff.ts';
import { Problem } from '../shared/Problem.tsx';
import { SelectField } from '../shared/SelectField.tsx';
import { TableScroll } from '../shared/TableScroll.tsx';
import { all, useApi } from '../shared/use-api.ts';

interface Props {
  readonly spaceId: string;
  readonly firewall: Firewall;
  /** Admins and owners roll back. */
  readonly editable: boolean;
  /** True when the draft holds unsaved changes, which a rollback replaces. */
  readonly unsaved: boolean;
}

/** Every version (number, author, time, comment), any two compared as a settings diff and a file diff, and rollback. */
export function HistoryTab({ spaceId, firewall, editable, unsaved }: Props) {
  const versions = useApi($firewallVersions);
  const from = useStore($compareFrom);
  const to = useStore($compareTo);
  const [layout, setLayout] = useState<DiffLayout>('split');
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const layoutName = useId();
  const items = versions.loaded.state === 'ready' ? versions.loaded.data.items : null;

  // By default the newest version is compared with the one before it.
  useEffect(() => {
    if (!items || items.length === 0) return;
    const newest = items[0]?.version ?? 1;
    if ($compareTo.get() === null) $compareTo.set(String(newest));
    if ($compareFrom.get() === null) $compareFrom.set(String(items[1]?.version ?? newest));
  }, [items]);
  useEffect(
    () => () => {
      $compareFrom.set(null);
      $compareTo.set(null);
    },
    [],
  );

  if (versions.loaded.state === 'loading')
    return (
      <p className="muted" role="status">
        Loading versions…
      </p>
    );
  if (versions.loaded.state === 'error') return <Problem error={versions.loaded.error} onRetry={versions.retry} />;
  const list = versions.loaded.data.items;
  // Same settings, same files, same hash: a rollback or a save that changed nothing names the version it repeats.
  const sameAs = (index: number): number | undefined =>
    list.slice(index + 1).find((older) => older.hash === list[index]?.hash)?.version;
  const options = list.map((item) => ({ value: String(item.version), label: `Version ${item.version}` }));

  const rollback = async (version: number): Promise<void> => {
    try {
      const answer = await rollbackFirewall(spaceId, firewall.id, version);
      startDraft(answer);
      setNotice({
        tone: 'success',
        text: `Rolled back: version ${answer.version} has the settings of version ${version}.`,
      });
      $compareFrom.set(String(answer.version - 1));
      $compareTo.set(String(answer.version));
    } catch (error) {
      setNotice({ tone: 'error', text: `Not rolled back to version ${version}: ${errorMessage(error)}` });
    }
  };

  return (
    <>
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      <TableScroll label="Versions table">
        <table className="data" aria-label="Versions">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Saved by</th>
              <th scope="col">When</th>
              <th scope="col">Comment</th>
              {editable && <th scope="col">Roll back</th>}
            </tr>
          </thead>
          <tbody>
            {list.map((item, index) => (
              <tr key={item.version}>
                <th scope="row">
                  {item.version}
                  {item.version === firewall.version ? ' (newest)' : ''}
                </th>
                <td>{item.author.name ?? 'a deleted user'}</td>
                <td>
                  <time dateTime={item.createdAt}>{dateTime(item.createdAt)}</time>
                </td>
                <td>
                  {item.comment ?? <span className="muted">none</span>}
                  {sameAs(index) !== undefined && (
                    <span className="muted"> (same files as version {sameAs(index)}: nothing changed for the WAF)</span>
                  )}
                </td>
                {editable && (
                  <td>
                    {item.version !== firewall.version && (
                      <ConfirmButton
                        label={`Roll back to version ${item.version}`}
                        question={`Save a new version with the settings of version ${item.version}?${unsaved ? ' Your unsaved changes are discarded.' : ''}`}
                        confirmLabel="Roll back"
                        danger={false}
                        onConfirm={() => rollback(item.version)}
                      />
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <section aria-labelledby="sg-fw-compare-heading">
        <h3 id="sg-fw-compare-heading">Compare two versions</h3>
        <div className="sg-fw-grid">
          <SelectField
            label="From version"
            options={options}
            value={from ?? ''}
            onChange={(event) => $compareFrom.set(event.currentTarget.value)}
          />
          <SelectField
            label="To version"
            options={options}
            value={to ?? ''}
            onChange={(event) => $compareTo.set(event.currentTarget.value)}
          />
          <fieldset className="plain-fieldset">
            <legend>Layout</legend>
            {(
              [
                ['split', 'Side by side'],
                ['unified', 'Unified'],
              ] as const
            ).map(([value, label]) => (
              <div key={value} className="sg-fw-choice">
                <input
                  type="radio"
                  id={`${layoutName}-${value}`}
                  name={layoutName}
                  checked={layout === value}
                  onChange={() => setLayout(value)}
                />
                <label htmlFor={`${layoutName}-${value}`}>{label}</label>
              </div>
            ))}
          </fieldset>
        </div>
        <Comparison layout={layout} />
      </section>
    </>
  );
}

/** The settings diff and the file diffs of the two chosen versions. */
function Comparison({ layout }: { layout: DiffLayout }) {
  const from = useApi($versionFrom);
  const to = useApi($versionTo);
  const loaded = all(from.loaded, to.loaded);
  if (loaded.state === 'loading')
    return (
      <p className="muted" role="status">
        Loading the two versions…
      </p>
    );
  if (loaded.state === 'error')
    return (
      <Problem
        error={loaded.error}
        onRetry={() => {
          from.retry();
          to.retry();
        }}
      />
    );
  const [older, newer] = loaded.data;
  const span = `version ${older.version} to version ${newer.version}`;
  const settings = diffLines(JSON.stringify(older.settings, null, 2), JSON.stringify(newer.settings, null, 2));
  const names = [...new Set([...Object.keys(older.files), ...Object.keys(newer.files)])].sort();
  const files = names
    .map((name) => ({ name, lines: diffLines(older.files[name] ?? '', newer.files[name] ?? '') }))
    .filter((file) => hasChanges(file.lines));
  return (
    <>
      <h4>Settings, {span}</h4>
      {hasChanges(settings) ? (
        <DiffView label={`Settings, ${span}`} lines={settings} layout={layout} />
      ) : (
        <p className="muted">The settings are the same.</p>
      )}
      <h4>Generated files, {span}</h4>
      {files.length === 0 && <p className="muted">The generated files are the same.</p>}
      {files.map((file) => (
        <div key={file.name}>
          <h5 className="sg-mono">{file.name}</h5>
          <DiffView label={`${file.name}, ${span}`} lines={file.lines} layout={layout} />
        </div>
      ))}
    </>
  );
}
