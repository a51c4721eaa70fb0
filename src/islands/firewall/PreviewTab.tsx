import { useEffect } from 'react';
import type { Firewall } from '../../../contract/firewalls.ts';
import { $previewFiles, $previewVersion } from '../../stores/firewalls.ts';
import { CopyButton } from '../shared/CopyButton.tsx';
import { Problem } from '../shared/Problem.tsx';
import { useApi } from '../shared/use-api.ts';

interface Props {
  readonly firewall: Firewall;
}

/** Saves a text as a file through a temporary link. */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name.split('/').join('_');
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The newest version's generated files, read-only with copy and download. */
export function PreviewTab({ firewall }: Props) {
  const files = useApi($previewFiles);
  useEffect(() => {
    $previewVersion.set(String(firewall.version));
  }, [firewall.version]);
  useEffect(() => () => $previewVersion.set(null), []);

  return (
    <section aria-labelledby="sg-fw-files-heading">
      <h3 id="sg-fw-files-heading">Generated files of version {firewall.version}</h3>
      <p className="muted">What the connector applies: read-only, generated from the saved settings.</p>
      {files.loaded.state === 'loading' && (
        <p className="muted" role="status">
          Loading the generated files…
        </p>
      )}
      {files.loaded.state === 'error' && <Problem error={files.loaded.error} onRetry={files.retry} />}
      {files.loaded.state === 'ready' &&
        Object.entries(files.loaded.data.files)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([name, text]) => (
            <div key={name} className="sg-fw-file">
              <h4 className="sg-mono">{name}</h4>
              <div className="row">
                <CopyButton text={text} label={`Copy ${name}`} />
                <button type="button" className="button secondary" onClick={() => download(name, text)}>
                  Download {name}
                </button>
              </div>
              <section className="sg-fw-scroll" aria-label={`Contents of ${name}`}>
                {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable by keyboard */}
                <pre className="sg-fw-pre" tabIndex={0}>
                  {text === '' ? '(empty)' : text}
                </pre>
              </section>
            </div>
          ))}
    </section>
  );
}
